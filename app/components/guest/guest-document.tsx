// The document every built-in guest page is: one inline style sheet, no script, no request to
// another host, in the guest's language (`lang`). Pages inside an operator's splash page use its
// frame instead (app/guest/pages.tsx), with the same cards.
import type { ReactNode } from "react";
import type { LanguageLink } from "./connect-text";
import { GUEST_STYLE } from "./style";

export function GuestDocument({ title, lang, children }: { title: string; lang: string; children: ReactNode }) {
  return (
    <html lang={lang}>
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

/** The link to the same page in the other language: a plain link, so it works without script or cookie. */
export function LanguageSwitch({ link }: { link: LanguageLink | null }) {
  if (!link) return null;
  return (
    <p className="lang" style={{ margin: "0 0 .25rem", textAlign: "right", fontSize: ".85rem" }}>
      <a href={link.href} hrefLang={link.lang} lang={link.lang}>
        {link.name}
      </a>
    </p>
  );
}
