// The document every built-in guest page is: one inline style sheet, no script, no request to
// another host. The venue's branding (issue 35) belongs here, so every page that uses it gets it.
import type { ReactNode } from "react";
import { GUEST_STYLE } from "./style";

export function GuestDocument({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: GUEST_STYLE }} />
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}
