import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches } from "@remix-run/react";
import type { ReactNode } from "react";
import { useNonce } from "~/components/nonce";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ToastMessage } from "~/components/ui/toast";
import { commitSession, getSession } from "~/services/session.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Mlango" }, { name: "description", content: "Guest Wi-Fi console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const toast = session.get("toast") ?? null;
  return json({ toast }, toast ? { headers: { "Set-Cookie": await commitSession(session) } } : undefined);
}

/**
 * A page whose route says `handle = { hydrate: false }` ships no JavaScript: it works as plain HTML
 * (every console form does) and loads in a fraction of the bytes (the sign-in page).
 */
function useHydrate(): boolean {
  return !useMatches().some((m) => (m.handle as { hydrate?: unknown } | undefined)?.hydrate === false);
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const hydrate = useHydrate();
  return (
    <html lang="en" className="h-full bg-slate-100">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full text-slate-900">
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <Document>
      <ToastMessage toast={toast} />
      <Outlet />
    </Document>
  );
}

export function ErrorBoundary() {
  return (
    <Document>
      <GeneralErrorBoundary />
    </Document>
  );
}
