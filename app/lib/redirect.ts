// Where to send someone after an action (`redirectTo`): only somewhere on our own site. The value is
// parsed as a URL against a fixed base, the way a browser would read it, and accepted only when it
// stays on that base's origin — string tests miss what browsers forgive (tabs and newlines are
// dropped, backslashes read as slashes: "/\t/evil.example" is "//evil.example").
const BASE = "http://mlango.invalid";
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

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
  return `${url.pathname}${url.search}${url.hash}`;
}
