// Report subscriptions (docs/guide/reports.md#report-subscriptions, docs/guide/api.md#queries, #mutations):
// a signed-in member asks for a report by e-mail every day at an hour of the UTC day (1–24). A subscription
// belongs to one user, organisation and report; subscribing again changes the hour. Reports need no
// permission beyond membership (docs/guide/access-control.md#what-each-permission-shows), so the guard's
// context is enough.
import { db } from "~/db/db.server";
import { isUniqueViolation } from "~/db/sql.server";
import { firstDeliveryDay, type ReportSlug } from "~/lib/reports";
import { notFound, type OrgContext } from "./guard.server";

export interface ReportSubscription {
  id: number;
  report: ReportSlug;
  send_at: number;
  last_sent_on: string | null;
}

/** myReports(report): the user's subscriptions in the organisation, all or one report's. */
export async function myReports(ctx: OrgContext, report?: ReportSlug): Promise<ReportSubscription[]> {
  let query = db
    .selectFrom("report_subscriptions")
    .select(["id", "report", "send_at", "last_sent_on"])
    .where("organization_id", "=", ctx.org.id)
    .where("user_id", "=", ctx.user.id);
  if (report) query = query.where("report", "=", report);
  const rows = await query.orderBy("id", "asc").execute();
  return rows.map((r) => ({ ...r, report: r.report as ReportSlug }));
}

/** subscribeReport(report, sendTime): creates the subscription, or moves an existing one to the new hour. */
export async function subscribeReport(ctx: OrgContext, report: ReportSlug, sendAt: number, now = Date.now()): Promise<ReportSubscription> {
  const existing = await myReports(ctx, report);
  if (existing[0]) return updateHour(ctx, existing[0].id, sendAt, now);
  try {
    const row = await db
      .insertInto("report_subscriptions")
      .values({
        organization_id: ctx.org.id,
        user_id: ctx.user.id,
        report,
        send_at: sendAt,
        first_day: firstDeliveryDay(sendAt, now, ctx.org.clock.offsetMs),
        last_sent_on: null,
        created_at: now,
        updated_at: now,
      })
      .returning(["id", "report", "send_at", "last_sent_on"])
      .executeTakeFirstOrThrow();
    return { ...row, report: row.report as ReportSlug };
  } catch (error) {
    // A second tab subscribed at the same moment: keep one subscription, with this hour.
    if (!isUniqueViolation(error)) throw error;
    const [again] = await myReports(ctx, report);
    return updateHour(ctx, again!.id, sendAt, now);
  }
}

async function updateHour(ctx: OrgContext, id: number, sendAt: number, now: number): Promise<ReportSubscription> {
  const row = await db
    .updateTable("report_subscriptions")
    .set({ send_at: sendAt, first_day: firstDeliveryDay(sendAt, now, ctx.org.clock.offsetMs), updated_at: now })
    .where("id", "=", id)
    .where("organization_id", "=", ctx.org.id)
    .where("user_id", "=", ctx.user.id)
    .returning(["id", "report", "send_at", "last_sent_on"])
    .executeTakeFirstOrThrow();
  return { ...row, report: row.report as ReportSlug };
}

/** unsubscribeReport(id): only the user's own subscription in this organisation; anything else is a 404. */
export async function unsubscribeReport(ctx: OrgContext, id: number): Promise<ReportSlug> {
  const row = await db
    .deleteFrom("report_subscriptions")
    .where("id", "=", id)
    .where("organization_id", "=", ctx.org.id)
    .where("user_id", "=", ctx.user.id)
    .returning("report")
    .executeTakeFirst();
  return (row?.report as ReportSlug | undefined) ?? notFound();
}
