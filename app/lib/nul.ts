/**
 * Whether a parsed body (strings, arrays, objects, keys included) holds a NUL character anywhere.
 * PostgreSQL text cannot store one, and no honest client sends one: bodies with it are refused.
 */
export const hasNul = (value: unknown): boolean =>
  typeof value === "string"
    ? value.includes("\0")
    : Array.isArray(value)
      ? value.some(hasNul)
      : value && typeof value === "object"
        ? Object.entries(value).some(([key, item]) => key.includes("\0") || hasNul(item))
        : false;
