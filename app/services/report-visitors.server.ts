// The visitor lists of the reports (spec 3 §3 "Visitor record", §7 newVisitors, uniqueVisitors,
// repeatVisitors with venues, dates, paging, search). Which customers each list holds follows
// DESIGN.md "Analytics definitions"; a connection counts in the window when it was created in it:
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
import { stringify } from "csv-stringify/sync";
import { sql, type Expression, type SqlBool } from "kysely";
import { db } from "~/db/db.server";
import { containsText } from "~/db/sql.server";
import type { AnalyticsScope } from "~/lib/analytics";
import type { ListParams } from "~/lib/pagination";
import type { VisitorReport } from "~/lib/reports";

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

/** Customers of the window with their authorized connections, filtered as the report asks. */
function visitsOf(scope: AnalyticsScope, report: VisitorReport) {
  const { organizationId, range, venueIds } = scope;
  let visits = db
    .selectFrom("connections as w")
    .select(["w.customer_id", sql<number>`sum(case when ${sql.ref("w.authorized_at")} is null then 0 else 1 end)`.as("connections")])
    .where("w.organization_id", "=", organizationId)
    .where("w.created_at", ">=", range.startMs)
    .where("w.created_at", "<", range.endMs)
    .where("w.customer_id", "is not", null)
    .groupBy("w.customer_id");
  if (venueIds?.length) visits = visits.where("w.venue_id", "in", venueIds);
  if (report !== "all_visitors") visits = visits.where("w.authorized_at", "is not", null);
  if (report === "new_visitors" || report === "repeat_visitors") {
    visits = visits.where((eb) => {
      const before = eb
        .selectFrom("connections as b")
        .select(sql.lit(1).as("one"))
        .where("b.organization_id", "=", organizationId)
        .whereRef("b.customer_id", "=", "w.customer_id")
        .where("b.authorized_at", "is not", null)
        .where("b.created_at", "<", range.startMs);
      return report === "new_visitors" ? eb.not(eb.exists(before)) : eb.exists(before);
    });
  }
  return visits;
}

function listQuery(scope: AnalyticsScope, report: VisitorReport, search: string) {
  let query = db
    .selectFrom(visitsOf(scope, report).as("v"))
    .innerJoin("customers as c", "c.id", "v.customer_id")
    .where("c.organization_id", "=", scope.organizationId);
  if (search) {
    query = query.where((eb) =>
      eb.or(
        (["c.first_name", "c.middle_name", "c.last_name", "c.identity", "c.phone_number", "c.email_address"] as const).map(
          (column): Expression<SqlBool> => containsText(column, search),
        ),
      ),
    );
  }
  return query;
}

function selectRows(query: ReturnType<typeof listQuery>) {
  return query
    .select((eb) => [
      "c.id",
      "c.first_name",
      "c.middle_name",
      "c.last_name",
      "c.identity",
      "c.phone_number",
      "c.email_address",
      "c.facebook",
      "c.twitter",
      "c.more_info",
      "v.connections",
      eb.selectFrom("devices as d").select(eb.fn.countAll<number>().as("n")).whereRef("d.customer_id", "=", "c.id").as("devices"),
    ])
    .orderBy("c.created_at", "desc")
    .orderBy("c.id", "desc");
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
    connectionsCount: Number(r.connections),
  };
}

/** newVisitors / uniqueVisitors / repeatVisitors / allVisitors with their count. */
export async function listVisitors(
  scope: AnalyticsScope,
  report: VisitorReport,
  params: Pick<ListParams, "offset" | "pageSize" | "search">,
): Promise<{ rows: VisitorRow[]; total: number }> {
  const query = listQuery(scope, report, params.search);
  const [rows, count] = await Promise.all([
    selectRows(query).limit(params.pageSize).offset(params.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toVisitor), total: Number(count.total) };
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
      query = query.where((eb) => eb.or([eb("c.created_at", "<", created_at), eb.and([eb("c.created_at", "=", created_at), eb("c.id", "<", id)])]));
    }
    const rows = await selectRows(query).select("c.created_at").limit(batchSize).execute();
    if (rows.length === 0) return;
    yield rows.map(toVisitor);
    const last = rows[rows.length - 1]!;
    after = { created_at: Number(last.created_at), id: last.id };
    if (rows.length < batchSize) return;
  }
}

export const VISITOR_CSV_HEADER = ["#", "Name", "Identity", "Phone Number", "Email", "Facebook", "Twitter", "More Info", "Devices", "Connections"];

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
        controller.enqueue(encoder.encode(stringify([VISITOR_CSV_HEADER])));
        return;
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(stringify(next.value.map((row) => visitorCsvRow(row, ++n)))));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
