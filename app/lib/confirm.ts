/**
 * The answer an action gives to a destructive request that was not yet confirmed.
 * With JavaScript the browser's confirm() asks first and the request arrives confirmed;
 * without it, the action returns this and the page shows <ConfirmPrompt>.
 */
export interface ConfirmationRequest {
  confirm: { message: string; intent: string; fields: Record<string, string> };
}

export function isConfirmationRequest(value: unknown): value is ConfirmationRequest {
  return typeof value === "object" && value !== null && "confirm" in value;
}

/**
 * null when the form carries confirmed=yes; otherwise the confirmation the page must ask for.
 * Usage in an action: `const ask = confirmationNeeded(form, "delete", msg, { id }); if (ask) return json(ask);`
 */
export function confirmationNeeded(
  form: FormData,
  intent: string,
  message: string,
  fields: Record<string, string | number> = {},
): ConfirmationRequest | null {
  if (form.get("confirmed") === "yes") return null;
  const asStrings = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  return { confirm: { message, intent, fields: asStrings } };
}
