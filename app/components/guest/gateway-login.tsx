// The page that logs the guest in at the gateway (RADIUS makes): a form to the gateway's login
// address that submits itself; without JavaScript the guest presses the button. Its one script
// comes in as `script`, the text the page's CSP allows by hash (radius/login.server.ts).
const LOGIN_STYLE =
  "body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#0f172a;background:#f1f5f9}main{max-width:26rem;margin:0 auto;padding:1.25rem 1rem}.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}button{display:block;width:100%;margin-top:1rem;padding:.75rem;font:inherit;font-weight:600;border:0;border-radius:.5rem;background:#4f46e5;color:#fff}p{color:#475569}";

export interface GatewayLoginForm {
  /** The gateway's login address (from its redirect). */
  action: string;
  fields: [name: string, value: string][];
}

export function GatewayLoginDocument({ form, networkName, script }: { form: GatewayLoginForm; networkName: string; script: string }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>Connecting…</title>
        <style dangerouslySetInnerHTML={{ __html: LOGIN_STYLE }} />
      </head>
      <body>
        <main>
          <div className="card">
            <p>{networkName}</p>
            <h1>You are almost online</h1>
            <form id="login" method="post" action={form.action}>
              {form.fields.map(([name, value], i) => (
                <input key={i} type="hidden" name={name} value={value} />
              ))}
              <p>Press the button if nothing happens.</p>
              <button type="submit">Go online</button>
            </form>
          </div>
        </main>
        <script dangerouslySetInnerHTML={{ __html: script }} />
      </body>
    </html>
  );
}
