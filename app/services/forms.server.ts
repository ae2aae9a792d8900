// Every action reads its conform form through parseForm, never through parseWithZod directly
// (tests/unit/forms.test.ts checks): conform reads its own controls from the form, `__intent__` (the
// list buttons: insert, remove, reorder…) and `__state__`, with JSON.parse and throws on anything
// else, so "' OR 1=1 --" in either was a 500. A form whose controls cannot be read answers 400.
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";

export const MALFORMED_FORM_MESSAGE = "This form could not be read. Reload the page and try again.";

const CONTROLS = ["__intent__", "__state__"];

/**
 * parseWithZod that throws `refusal()` when conform cannot read the form's own controls. Other
 * errors (a schema's bug) are not conform's reading of the request, and are thrown as they are.
 */
export function guardedParseWithZod(refusal: () => Response): typeof parseWithZod {
  return ((payload: FormData | URLSearchParams, options: Parameters<typeof parseWithZod>[1]) => {
    const malformed = (error: unknown) => {
      if (CONTROLS.some((name) => payload.has(name))) throw refusal();
      throw error;
    };
    try {
      const result: unknown = parseWithZod(payload, options);
      return result instanceof Promise ? result.catch(malformed) : result;
    } catch (error) {
      return malformed(error);
    }
  }) as typeof parseWithZod;
}

/** conform's parseWithZod for pages' actions: a form with unreadable controls is a plain 400. */
export const parseForm = guardedParseWithZod(() => json({ message: MALFORMED_FORM_MESSAGE }, { status: 400 }));
