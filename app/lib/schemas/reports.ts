import { z } from "zod";
import { REPORT_SLUGS, type ReportSlug } from "~/lib/reports";

// The report subscription forms (docs/guide/api.md#mutations),
// shared by the report pages and any API that takes the same payload.

export const REPORT_SUBSCRIPTION_MESSAGES = {
  hourInvalid: "Choose an hour between 01 and 24.",
  reportInvalid: "Choose one of the reports.",
} as const;

export const subscribeReportSchema = z.object({
  report: z.enum(REPORT_SLUGS as [ReportSlug, ...ReportSlug[]], {
    errorMap: () => ({ message: REPORT_SUBSCRIPTION_MESSAGES.reportInvalid }),
  }),
  sendTime: z.coerce
    .number({ required_error: REPORT_SUBSCRIPTION_MESSAGES.hourInvalid, invalid_type_error: REPORT_SUBSCRIPTION_MESSAGES.hourInvalid })
    .int(REPORT_SUBSCRIPTION_MESSAGES.hourInvalid)
    .min(1, REPORT_SUBSCRIPTION_MESSAGES.hourInvalid)
    .max(24, REPORT_SUBSCRIPTION_MESSAGES.hourInvalid),
});
