// Ids in URLs and forms: positive integers that fit the 32-bit integer id columns
// (a larger number would be an error on PostgreSQL instead of a 404).
const MAX_ID = 2_147_483_647;

export function parseId(raw: unknown): number | null {
  if (typeof raw === "number") raw = String(raw);
  if (typeof raw !== "string" || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}
