import { Form, Link, useLocation, useSubmit } from "@remix-run/react";
import { PAGE_SIZES, pageCount, pageWindow } from "~/lib/pagination";

function hrefWith(location: { pathname: string; search: string }, changes: Record<string, string | number>) {
  const params = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) params.set(k, String(v));
  return `${location.pathname}?${params}`;
}

/** Page links; shown only when there is more than one page. `prefix`: see parseListParams. */
export function Pagination({ page, pageSize, total, prefix = "" }: { page: number; pageSize: number; total: number; prefix?: string }) {
  const location = useLocation();
  const last = pageCount(total, pageSize);
  if (last <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center gap-1 text-sm">
      {page > 1 ? (
        <Link className="btn-secondary" to={hrefWith(location, { [`${prefix}page`]: page - 1 })} rel="prev">
          Previous
        </Link>
      ) : null}
      {pageWindow(page, last).map((p, i) =>
        p === null ? (
          <span key={`gap${i}`} className="px-2 text-slate-400">
            …
          </span>
        ) : (
          <Link
            key={p}
            to={hrefWith(location, { [`${prefix}page`]: p })}
            aria-current={p === page ? "page" : undefined}
            className={p === page ? "btn-primary" : "btn-secondary"}
          >
            {p}
          </Link>
        ),
      )}
      {page < last ? (
        <Link className="btn-secondary" to={hrefWith(location, { [`${prefix}page`]: page + 1 })} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * Records per page and search: a GET form, so it works without JavaScript (Show button);
 * with JavaScript the page size applies as soon as it is chosen. A list's own filters (`children`,
 * whose field names are `controls`) sit in the same form, so submitting any of them sends what was
 * typed or chosen in all of them; the other params of the URL are kept.
 */
export function ListControls({
  pageSize,
  search,
  pageSizes = PAGE_SIZES,
  searchLabel = "Search",
  prefix = "",
  children,
  controls = [],
}: {
  pageSize: number;
  search: string;
  pageSizes?: readonly number[];
  searchLabel?: string;
  prefix?: string;
  children?: React.ReactNode;
  controls?: readonly string[];
}) {
  const submit = useSubmit();
  const location = useLocation();
  const own = [...["page", "per_page", "search"].map((k) => `${prefix}${k}`), ...controls];
  const keep = [...new URLSearchParams(location.search)].filter(([k]) => !own.includes(k));
  return (
    <Form method="get" className="mb-3 flex flex-wrap items-end gap-3 text-sm" role="search">
      {keep.map(([k, v], i) => (
        <input key={`${k}${i}`} type="hidden" name={k} value={v} />
      ))}
      {children}
      <label className="flex items-center gap-2">
        Records per page
        <select name={`${prefix}per_page`} defaultValue={pageSize} className="input w-auto" onChange={(e) => submit(e.currentTarget.form)}>
          {pageSizes.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2">
        <span className="sr-only">{searchLabel}</span>
        <input type="search" name={`${prefix}search`} defaultValue={search} placeholder={searchLabel} className="input w-56" />
      </label>
      <button type="submit" className="btn-secondary">
        Show
      </button>
    </Form>
  );
}
