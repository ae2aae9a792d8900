// Where to send someone after an action (`redirectTo`): only somewhere on our own site. The value is
// parsed as a URL against a fixed base, the way a browser would read it, and accepted only when it
// stays on that base's origin — string tests miss what browsers forgive (tabs and newlines are
// dropped, backslashes read as slashes: "/\t/evil.example" is "//evil.example").
//
// Staying on the origin is not enough: the parser also resolves dot segments, so "/.//evil.example"
// (or "/%2e%2e//evil.example", "/.\/evil.example") is our origin with the path "//evil.example" — and
// that path, sent back as a Location, is a protocol-relative URL to another host. So the normalised
// path must not start with two slashes (or a slash and a backslash), nor do so once its encoded
// slashes and backslashes are decoded, as a proxy or a later redirect may do.
const BASE = "http://mlango.invalid";
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const LEADS_TO_ANOTHER_HOST = /^[/\\]{2}/;

function decodeSlashes(path: string): string {
  return path.replace(/%2f/gi, "/").replace(/%5c/gi, "\\");
}

/** A same-origin path (path, query and fragment, percent-encoded), else `fallback`. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (!to || typeof to !== "string" || !to.startsWith("/") || CONTROL_CHARACTERS.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  if (LEADS_TO_ANOTHER_HOST.test(url.pathname) || LEADS_TO_ANOTHER_HOST.test(decodeSlashes(url.pathname))) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
