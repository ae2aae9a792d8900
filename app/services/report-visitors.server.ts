// The visitor lists of the reports (docs/guide/reports.md#visitor-lists,
// docs/guide/api.md#queries). Which customers each list holds follows
// docs/glossary.md#analytics-definitions; a connection counts in the window when it was created
// in it:
//
// - new_visitors: got online in the window (at the chosen venues) and their first authorized
//   connection anywhere in the organisation falls in the window;
// - repeat_visitors: got online in the window (at the chosen venues) and had an authorized
//   connection in the organisation before the window starts (the old screen swapped the dates);
// - unique_visitors: every customer who got online in the window, once each (new + repeat);
// - all_visitors: every customer with a connection record in the window, online or not, so it
//   also holds guests who reached the portal and left (footfall's customers).
//
// connectionsCount is the customer's authorized connections in the window (at the chosen venues),
// devicesCount the devices the customer has in the organisation. Newest customers first.
//
// At scale (millions of connections): a list walks the organisation's customers newest first and
// tests each one with an index lookup — the analytics roll-up customer_visit_days (one row per
// customer, venue and day with authorized connections) for the authorized lists,
// customer_presence_days (the same for any connection record) for all visitors — so a page stops
// after its rows. Totals without a search come from roll-up counts (the analytics service's for
// the authorized lists, presence_gaps for all visitors); with a search, the matching customers are
// counted with the same test, up to a cap.
import { csvHeader, csvLines } from "~/lib/csv-line";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import { assertWholeDays } from "~/lib/date-range";
import type { AnalyticsScope } from "~/lib/analytics";
import type { ListParams } from "~/lib/pagination";
import type { VisitorReport } from "~/lib/reports";
import { customerCounts } from "./analytics.server";
import { searchTextMatches } from "./connections-search.server";

export interface VisitorRow {
  id: number;
  name: string;
  identity: string;
  phone_number: string | null;
  email_address: string | null;
  facebook: string | null;
  twitter: string | null;
  more_info: string | null;
  devicesCount: number;
  connectionsCount: number;
}

type CustomerEb = ExpressionBuilder<DB, "customers">;

/** The venue keys of the scope's roll-up rows: the organisation (0) or the chosen venues. */
const venueKeys = (scope: AnalyticsScope) => (scope.venueIds?.length ? [...scope.venueIds] : [0]);

/** The customer's visit days in the window: in the organisation (venue key 0) or at the chosen venues. */
function visitDaysInWindow(eb: CustomerEb, scope: AnalyticsScope) {
  return eb
    .selectFrom("customer_visit_days as v")
    .where("v.organization_id", "=", scope.organizationId)
    .whereRef("v.customer_id", "=", "customers.id")
    .where("v.venue_key", "in", venueKeys(scope))
    .where("v.day_start", ">=", scope.range.startMs)
    .where("v.day_start", "<", scope.range.endMs);
}

/** The customer's days with a connection record, authorized or not, in the window (as visitDaysInWindow). */
function presenceDaysInWindow(eb: CustomerEb, scope: AnalyticsScope) {
  return eb
    .selectFrom("customer_presence_days as w")
    .where("w.organization_id", "=", scope.organizationId)
    .whereRef("w.customer_id", "=", "customers.id")
    .where("w.venue_key", "in", venueKeys(scope))
    .where("w.day_start", ">=", scope.range.startMs)
    .where("w.day_start", "<", scope.range.endMs);
}

/** Whether the customer belongs to the report's list. */
function inReport(eb: CustomerEb, scope: AnalyticsScope, report: VisitorReport): Expression<SqlBool> {
  if (report === "all_visitors") return eb.exists(presenceDaysInWindow(eb, scope).select(sql.lit(1).as("one")));
  const visited = eb.exists(visitDaysInWindow(eb, scope).select(sql.lit(1).as("one")));
  if (report === "unique_visitors") return visited;
  const before = eb.exists(
    eb
      .selectFrom("customer_visit_days as p")
      .select(sql.lit(1).as("one"))
      .where("p.organization_id", "=", scope.organizationId)
      .whereRef("p.customer_id", "=", "customers.id")
      .where("p.venue_key", "=", 0)
      .where("p.day_start", "<", scope.range.startMs),
  );
  // Repeat: the earlier-visit test first, so the many new customers a walk meets cost one lookup each.
  return report === "new_visitors" ? eb.and([visited, eb.not(before)]) : eb.and([before, visited]);
}

function listQuery(scope: AnalyticsScope, report: VisitorReport, search: string) {
  assertWholeDays(scope.range);
  let query = db
    .selectFrom("customers")
    .where("customers.organization_id", "=", scope.organizationId)
    .where((eb) => inReport(eb, scope, report));
  if (search) query = query.where(searchTextMatches("customers", search));
  return query;
}

function selectRows(query: ReturnType<typeof listQuery>, scope: AnalyticsScope) {
  return query
    .select((eb) => [
      "customers.id",
      "customers.created_at",
      "customers.first_name",
      "customers.middle_name",
      "customers.last_name",
      "customers.identity",
      "customers.phone_number",
      "customers.email_address",
      "customers.facebook",
      "customers.twitter",
      "customers.more_info",
      eb.selectFrom("devices as d").select(eb.fn.countAll<number>().as("n")).whereRef("d.customer_id", "=", "customers.id").as("devices"),
      // Authorized connections in the window, for every list (all visitors too: the visit days hold them).
      visitDaysInWindow(eb, scope)
        .select(sql<number>`coalesce(sum(${sql.ref("v.connections")}), 0)`.as("n"))
        .as("connections"),
    ])
    .orderBy("customers.created_at", "desc")
    .orderBy("customers.id", "desc");
}

type RawRow = Awaited<ReturnType<ReturnType<typeof selectRows>["execute"]>>[number];

function toVisitor(r: RawRow): VisitorRow {
  return {
    id: r.id,
    name: [r.first_name, r.middle_name, r.last_name].filter(Boolean).join(" "),
    identity: r.identity,
    phone_number: r.phone_number,
    email_address: r.email_address,
    facebook: r.facebook,
    twitter: r.twitter,
    more_info: r.more_info,
    devicesCount: Number(r.devices ?? 0),
    connectionsCount: Number(r.connections ?? 0),
  };
}

/** Counting matches stops here (or a few pages past the current one): nobody pages through more. */
const COUNT_CAP = 10_000;
const PAGES_AHEAD = 5;

/**
 * Customers with a connection record in the window (the all-visitors total). All venues or one:
 * one presence day per customer has its next day at or after the window's end, so the gap counts
 * add up to it. Several venues: a customer may be at more than one, so those last days are
 * collected from the partial index (customer_presence_days_venue_day) and counted distinct.
 */
async function presentCustomers(scope: AnalyticsScope): Promise<number> {
  const { organizationId } = scope;
  const { startMs, endMs } = scope.range;
  const keys = venueKeys(scope);
  if (keys.length === 1) {
    const row = await db
      .selectFrom("presence_gaps")
      .where("organization_id", "=", organizationId)
      .where("venue_key", "=", keys[0])
      .where("next_day", ">=", endMs)
      .where("day_start", ">=", startMs)
      .where("day_start", "<", endMs)
      .select(sql<number>`coalesce(sum(customers), 0)`.as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  const row = await db
    .selectFrom("customer_presence_days as w")
    .where("w.organization_id", "=", organizationId)
    .where(sql<boolean>`w.venue_key <> 0`) // literally the partial index's condition, so it serves the query
    .where("w.venue_key", "in", keys)
    .where("w.day_start", ">=", startMs)
    .where("w.day_start", "<", endMs)
    .where("w.next_day", ">=", endMs)
    .select(sql<number>`count(distinct w.customer_id)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * How many customers the list holds: exact from the roll-up counts when they answer it (a list
 * without a search), else the matches counted up to a cap (`capped` when beyond).
 */
async function countVisitors(
  scope: AnalyticsScope,
  report: VisitorReport,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
): Promise<{ total: number; capped: boolean }> {
  if (!params.search && report === "all_visitors") return { total: await presentCustomers(scope), capped: false };
  if (!params.search) {
    const { newCustomers, repeatCustomers } = await customerCounts(scope);
    const total =
      report === "new_visitors" ? newCustomers : report === "repeat_visitors" ? repeatCustomers : newCustomers + repeatCustomers;
    return { total, capped: false };
  }
  const limit = Math.max(COUNT_CAP, params.offset + params.pageSize * PAGES_AHEAD);
  const row = await db
    .selectFrom(
      listQuery(scope, report, params.search)
        .select(sql.lit(1).as("one"))
        .limit(limit + 1)
        .as("matching"),
    )
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { total: Math.min(n, limit), capped: n > limit };
}

/** newVisitors / uniqueVisitors / repeatVisitors / allVisitors with their count (see countVisitors). */
export async function listVisitors(
  scope: AnalyticsScope,
  report: VisitorReport,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
): Promise<{ rows: VisitorRow[]; total: number; capped: boolean }> {
  const [rows, count] = await Promise.all([
    selectRows(listQuery(scope, report, params.search), scope)
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    countVisitors(scope, report, params),
  ]);
  return { rows: rows.map(toVisitor), ...count };
}

/** The whole list in batches (exports and e-mail attachments), keyset-paged so memory stays flat. */
export async function* visitorBatches(
  scope: AnalyticsScope,
  report: VisitorReport,
  search = "",
  batchSize = 2_000,
): AsyncGenerator<VisitorRow[]> {
  let after: { created_at: number; id: number } | null = null;
  for (;;) {
    let query = listQuery(scope, report, search);
    if (after) {
      const { created_at, id } = after;
      // "<= x and (< x or id < y)": the first half narrows the index range, the second skips what was read.
      query = query
        .where("customers.created_at", "<=", created_at)
        .where((eb) => eb.or([eb("customers.created_at", "<", created_at), eb("customers.id", "<", id)]));
    }
    const rows = await selectRows(query, scope).limit(batchSize).execute();
    if (rows.length === 0) return;
    yield rows.map(toVisitor);
    const last = rows[rows.length - 1]!;
    after = { created_at: Number(last.created_at), id: last.id };
    if (rows.length < batchSize) return;
  }
}

export const VISITOR_CSV_HEADER = [
  "#",
  "Name",
  "Identity",
  "Phone Number",
  "Email",
  "Facebook",
  "Twitter",
  "More Info",
  "Devices",
  "Connections",
];

/** One visitor as CSV cells (csvCell keeps guest text from being read as a spreadsheet formula). */
export function visitorCsvRow(row: VisitorRow, index: number): (string | number)[] {
  return [
    index,
    row.name,
    row.identity,
    row.phone_number ?? "",
    row.email_address ?? "",
    row.facebook ?? "",
    row.twitter ?? "",
    row.more_info ?? "",
    row.devicesCount,
    row.connectionsCount,
  ];
}

/** A visitor list as a CSV byte stream: the header, then one batch per read (pull-based, memory stays flat). */
export function visitorsCsvStream(scope: AnalyticsScope, report: VisitorReport, search: string): ReadableStream<Uint8Array> {
  const batches = visitorBatches(scope, report, search);
  const encoder = new TextEncoder();
  let n = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvHeader(VISITOR_CSV_HEADER)));
        return;
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(csvLines(next.value.map((row) => visitorCsvRow(row, ++n)))));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
