// The personal dashboard (docs/guide/dashboard.md#dashlets, #edit-mode): the layout stored on the
// user (`users.dashboard`, JSON), its edits, and the filters every dashboard figure shares (date
// range and venues).
import { db } from "~/db/db.server";
import { lockedForUpdate } from "~/db/sql.server";
import type { AnalyticsScope } from "~/lib/analytics";
import {
  addRow,
  moveRow,
  removeDashlet,
  removeRow,
  serializeLayout,
  setDashlet,
  type DashboardLayout,
  type EditResult,
  type ParsedLayout,
} from "~/lib/dashboard-layout";
import { parseLayout } from "~/lib/dashboard-layout-schema";
import { parseDateRange, type DateRange } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { dashboardEditSchema, type DashboardEdit } from "~/lib/schemas/dashboard";
import { notFound, type OrgContext } from "./guard.server";
import { parseForm } from "~/services/forms.server";

/**
 * The edit forms' submission read with their schema. Here, not in the route, so the dashboard's
 * browser bundle carries neither conform nor zod: the client build keeps a route's imports (as
 * chunks to load) even when only its action uses them.
 */
export function parseDashboardEdit(formData: FormData) {
  return parseForm(formData, { schema: dashboardEditSchema });
}

export async function getDashboardLayout(userId: number): Promise<ParsedLayout> {
  const user = await db.selectFrom("users").select("dashboard").where("id", "=", userId).executeTakeFirst();
  return parseLayout(user?.dashboard);
}

export async function saveDashboardLayout(userId: number, layout: DashboardLayout): Promise<void> {
  await db
    .updateTable("users")
    .set({ dashboard: serializeLayout(layout), updated_at: Date.now() })
    .where("id", "=", userId)
    .execute();
}

function applyEdit(layout: DashboardLayout, edit: DashboardEdit): EditResult {
  switch (edit.intent) {
    case "add-row":
      return addRow(layout, edit.layout);
    case "set-dashlet":
      return setDashlet(layout, edit.col, edit.dashlet);
    case "remove-dashlet":
      return removeDashlet(layout, edit.dashlet_id);
    case "remove-row":
      return removeRow(layout, edit.row);
    case "move-row":
      return moveRow(layout, edit.row, edit.direction);
  }
}

/**
 * Applies one edit to the user's dashboard and saves it at once
 * (docs/guide/dashboard.md#edit-mode). Read and write happen in one transaction so two quick edits
 * from two tabs do not lose one another. A stored layout that cannot be read is edited from the
 * default the page showed.
 */
export async function editDashboard(userId: number, edit: DashboardEdit): Promise<EditResult> {
  return db.transaction().execute(async (trx) => {
    let read = trx.selectFrom("users").select("dashboard").where("id", "=", userId);
    read = lockedForUpdate(read);
    const row = await read.executeTakeFirst();
    const result = applyEdit(parseLayout(row?.dashboard).layout, edit);
    if (result.ok) {
      await trx
        .updateTable("users")
        .set({ dashboard: serializeLayout(result.layout), updated_at: Date.now() })
        .where("id", "=", userId)
        .execute();
    }
    return result;
  });
}

export interface DashboardFilters {
  range: DateRange;
  /** The venues chosen in the multi-select; empty means every venue. */
  venueIds: number[];
  scope: AnalyticsScope;
}

/** Caps the multi-select so a crafted URL cannot ask for thousands of ids. */
const MAX_VENUE_FILTER = 200;

/**
 * The date range and the chosen venues (`venues`, repeated) of a dashboard URL. A malformed id, or
 * the id of a venue of another organisation, is a 404 like everywhere else.
 */
export async function parseDashboardFilters(ctx: OrgContext, url: URL): Promise<DashboardFilters> {
  const range = parseDateRange(url.searchParams, ctx.org.clock);
  const raw = [...new Set(url.searchParams.getAll("venues").filter((v) => v !== ""))];
  if (raw.length > MAX_VENUE_FILTER) notFound();
  const ids = raw.map((v) => parseId(v));
  if (ids.some((id) => id === null)) notFound();
  const venueIds = ids as number[];
  if (venueIds.length > 0) {
    const found = await db
      .selectFrom("venues")
      .select("id")
      .where("organization_id", "=", ctx.org.id)
      .where("id", "in", venueIds)
      .execute();
    if (found.length !== venueIds.length) notFound();
  }
  return { range, venueIds, scope: { organizationId: ctx.org.id, venueIds, range } };
}

/** The filters as a query string (start, end, venues…) for links and exports that show the same figures. */
export function filterQuery(filters: DashboardFilters): string {
  const params = new URLSearchParams({ start: filters.range.start, end: filters.range.end });
  for (const id of filters.venueIds) params.append("venues", String(id));
  return params.toString();
}
