// List paging from URL search params: out-of-range values are clamped, never an error.

export const PAGE_SIZES = [5, 10, 25, 50, 100, 250] as const;
export const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE = 1_000_000;
const MAX_SEARCH_LENGTH = 100;

export interface ListParams {
  page: number;
  pageSize: number;
  offset: number;
  search: string;
}

/**
 * `prefix` names the params of one list among several on a page (`c_page`, `c_per_page`, `c_search`
 * for prefix "c_"), so two tables page independently.
 */
export function parseListParams(
  searchParams: URLSearchParams,
  pageSizes: readonly number[] = PAGE_SIZES,
  defaultSize = DEFAULT_PAGE_SIZE,
  prefix = "",
): ListParams {
  const rawSize = Number.parseInt(searchParams.get(`${prefix}per_page`) ?? "", 10);
  const pageSize = pageSizes.includes(rawSize) ? rawSize : closestSize(rawSize, pageSizes, defaultSize);
  const rawPage = Number.parseInt(searchParams.get(`${prefix}page`) ?? "", 10);
  const page = Number.isFinite(rawPage) ? Math.min(Math.max(rawPage, 1), MAX_PAGE) : 1;
  const search = (searchParams.get(`${prefix}search`) ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
  return { page, pageSize, offset: (page - 1) * pageSize, search };
}

function closestSize(raw: number, sizes: readonly number[], fallback: number): number {
  if (!Number.isFinite(raw)) return fallback;
  if (raw <= sizes[0]) return sizes[0];
  return [...sizes].reverse().find((s) => s <= raw) ?? fallback;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Row number of the i-th row of the page: numbers run on across pages. */
export function rowNumber(params: Pick<ListParams, "offset">, index: number): number {
  return params.offset + index + 1;
}

/** The page numbers to link, with null for a gap: 1 … 4 5 [6] 7 8 … 20. */
export function pageWindow(current: number, last: number, span = 2): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - current) <= span) pages.push(p);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

/** Escapes LIKE wildcards in a user's search term. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
