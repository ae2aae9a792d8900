// The banners each network may serve, kept in this process so a guest's connect page does not wait
// for the database for them (decision 0020). Any change made through this process (a campaign
// created, paused or activated, a banner uploaded or switched) forgets them at once; another
// instance sees the change after at most CANDIDATES_TTL_MS and one more guest (the refresh is in
// the background), and so does a campaign reaching its activate or expire time.
export const CANDIDATES_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  at: number;
  value: T;
  refreshing: boolean;
}

const entries = new Map<string, Entry<unknown>>();

/**
 * The cached value of `key`. Only a network's first guest (or the first after a change made here)
 * waits for `load`; an entry older than CANDIDATES_TTL_MS is answered as it is while a fresh one is
 * read in the background (stale-while-revalidate), so the connect page never waits for it.
 */
export async function cachedCandidates<T>(key: string, now: number, load: () => Promise<T>): Promise<T> {
  const hit = entries.get(key) as Entry<T> | undefined;
  if (hit) {
    if (Math.abs(now - hit.at) >= CANDIDATES_TTL_MS && !hit.refreshing) {
      hit.refreshing = true;
      load()
        .then((value) => {
          if (entries.get(key) === hit) entries.set(key, { at: now, value, refreshing: false });
        })
        .catch((error: unknown) => {
          hit.refreshing = false;
          console.error(JSON.stringify({ at: new Date().toISOString(), event: "ad_candidates_refresh_failed", error: String(error) }));
        });
    }
    return hit.value;
  }
  const value = await load();
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(key, { at: now, value, refreshing: false });
  return value;
}

export function forgetCandidates(): void {
  entries.clear();
}
