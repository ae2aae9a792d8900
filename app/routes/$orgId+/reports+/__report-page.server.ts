// What every report page shares on the server: the guard (membership only:
// docs/guide/access-control.md#what-each-permission-shows), the date range, the venue filter,
// the user's subscription to this report, and the bell's two actions.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { AnalyticsScope } from "~/lib/analytics";
import { parseId } from "~/lib/ids";
import { formatDayMonthYear, parseDateRange } from "~/lib/date-range";
import { formatSendHour, reportTitle, type ReportPageHeader, type ReportSlug } from "~/lib/reports";
import { REPORT_SUBSCRIPTION_MESSAGES, subscribeReportSchema } from "~/lib/schemas/reports";
import { outboxFolder } from "~/services/email.server";
import { notFound, requireOrg } from "~/services/guard.server";
import { myReports, subscribeReport, unsubscribeReport } from "~/services/report-subscriptions.server";
import { reportVenueFilter } from "~/services/reports.server";
import { redirectWithToast } from "~/services/session.server";
import { formatOffset } from "~/lib/time-zone";
import { parseForm } from "~/services/forms.server";

/** The guard, range, venue filter and subscription of a report page; `header` goes to the browser as is. */
export async function loadReportPage({ request, params }: LoaderFunctionArgs, report: ReportSlug) {
  const ctx = await requireOrg(request, params);
  const url = new URL(request.url);
  const range = parseDateRange(url.searchParams, ctx.org.clock);
  const [{ venueIds, options }, subscriptions] = await Promise.all([reportVenueFilter(ctx, url.searchParams), myReports(ctx, report)]);
  const scope: AnalyticsScope = { organizationId: ctx.org.id, venueIds, range };
  const subscription = subscriptions[0] ?? null;
  return {
    ctx,
    url,
    scope,
    header: {
      orgId: ctx.org.id,
      report,
      title: reportTitle(report),
      range,
      period: `${formatDayMonthYear(range.start)} – ${formatDayMonthYear(range.end)}`,
      venues: options,
      venueIds: venueIds.map(String),
      subscription: subscription
        ? { id: subscription.id, sendAt: subscription.send_at, label: formatSendHour(subscription.send_at) }
        : null,
    } satisfies ReportPageHeader,
  };
}

/**
 * The bell's actions on every report page: `subscribe` (report, sendTime) and `unsubscribe` (id).
 * Success goes back to the same page with a message; a bad hour re-renders the form with its error.
 */
export async function reportSubscriptionAction({ request, params }: ActionFunctionArgs, report: ReportSlug) {
  const ctx = await requireOrg(request, params);
  const formData = await request.formData();
  const back = new URL(request.url);
  back.searchParams.delete("index");
  const to = `${back.pathname}${back.search}`;
  switch (formData.get("intent")) {
    case "subscribe": {
      const submission = parseForm(formData, { schema: subscribeReportSchema });
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      if (submission.value.report !== report) {
        return json(submission.reply({ formErrors: [REPORT_SUBSCRIPTION_MESSAGES.reportInvalid] }), { status: 400 });
      }
      const saved = await subscribeReport(ctx, report, submission.value.sendTime);
      const subscribed = `You will receive the ${reportTitle(report)} report by email every day at ${formatSendHour(saved.send_at)} (${formatOffset(ctx.org.clock.offsetMs)}).`;
      // Honest mail: without SMTP_URL each report is a file in the outbox folder.
      const outbox = outboxFolder();
      const kept =
        outbox && `No mail server is set (SMTP_URL), so until one is, each report is kept in the outbox folder ${outbox} instead.`;
      return redirectWithToast(request, to, kept ? { type: "info", message: `${subscribed} ${kept}` } : subscribed);
    }
    case "unsubscribe": {
      // Someone else's subscription, a missing or a malformed id: a 404 (unsubscribeReport checks the owner).
      const id = parseId(formData.get("id"));
      const unsubscribed = await unsubscribeReport(ctx, id ?? notFound());
      return redirectWithToast(request, to, `You will no longer receive the ${reportTitle(unsubscribed)} report by email.`);
    }
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}
