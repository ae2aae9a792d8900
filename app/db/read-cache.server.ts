// Reads that many requests share and that may be a few seconds old, kept in this process for a
// short while (decision 0089). The one user: the privacy notice's facts on every connect page
// (issue 33's budget for GET /connect fails without it: docs/decisions/0089). What is cached here
// may lag a change by up to its time to live (the operator's change reaches guests within it).
interface Entry<T> {
  value: Promise<T>;
  expiresAt: number;
}

/** At most this many keys per cache: the oldest goes first (a venue's notice is a key). */
const MAX_KEYS = 5_000;

export function readCache<K, T>(ttlMs: number, load: (key: K) => Promise<T>) {
  const entries = new Map<string, Entry<T>>();
  return {
    get(key: K, now = Date.now()): Promise<T> {
      const id = JSON.stringify(key);
      const hit = entries.get(id);
      if (hit && hit.expiresAt > now) return hit.value;
      const value = load(key);
      // A failed read is not kept: the next request tries again.
      value.catch(() => entries.get(id)?.value === value && entries.delete(id));
      entries.delete(id);
      entries.set(id, { value, expiresAt: now + ttlMs });
      if (entries.size > MAX_KEYS) entries.delete(entries.keys().next().value!);
      return value;
    },
  };
}
