import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { FormErrors, ErrorList, SubmitButton } from "~/components/ui/field";
import { DEFAULT_SEND_HOUR, SEND_HOURS, formatSendHour, type ReportPageHeader } from "~/lib/reports";
import { subscribeReportSchema } from "~/lib/schemas/reports";
import { formatOffset } from "~/lib/time-zone";
import { useOrgClock } from "~/components/ui/time";

function BellIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
      <path d="M10 2a5 5 0 0 0-5 5v2.6l-1.4 2.8A1 1 0 0 0 4.5 14h11a1 1 0 0 0 .9-1.6L15 9.6V7a5 5 0 0 0-5-5Zm-2 13a2 2 0 0 0 4 0H8Z" />
    </svg>
  );
}

/**
 * The subscribe bell (docs/guide/reports.md#report-subscriptions): a disclosure with a plain
 * POST form, so it opens and works without JavaScript. Not subscribed: an hour 01–24 (default
 * 18) and Subscribe. Subscribed: the hour and Unsubscribe. Errors open the panel and show the
 * message.
 */
export function SubscribeBell({ header, lastResult }: { header: ReportPageHeader; lastResult?: SubmissionResult<string[]> | null }) {
  const zone = formatOffset(useOrgClock().offsetMs);
  const [form, fields] = useForm({
    id: `subscribe-${header.report}`,
    lastResult,
    constraint: getZodConstraint(subscribeReportSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: subscribeReportSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { report: header.report, sendTime: String(header.subscription?.sendAt ?? DEFAULT_SEND_HOUR) },
  });
  const subscribed = header.subscription;
  const hasErrors = Boolean(form.errors?.length || fields.sendTime.errors?.length);
  return (
    <details className="relative" open={hasErrors || undefined}>
      <summary className={`${subscribed ? "btn-primary" : "btn-secondary"} cursor-pointer list-none`}>
        <BellIcon />
        {subscribed ? `Subscribed · ${subscribed.label}` : "Subscribe"}
      </summary>
      <div className="absolute right-0 z-10 mt-1 w-72 rounded-md border border-slate-200 bg-white p-4 text-sm shadow-lg">
        <p className="mb-3 font-medium">Receive the {header.title} report by email</p>
        {subscribed ? (
          <Form method="post" aria-label="Report subscription">
            <p className="mb-3 text-slate-600">
              Sent every day at <strong>{subscribed.label}</strong> ({zone}), with the day&apos;s figures and a CSV file.
            </p>
            <input type="hidden" name="id" value={subscribed.id} />
            <SubmitButton name="intent" value="unsubscribe" className="btn-danger" pendingText="Unsubscribing…">
              Unsubscribe
            </SubmitButton>
          </Form>
        ) : (
          <Form method="post" {...getFormProps(form)} aria-label="Report subscription">
            <FormErrors errors={form.errors} />
            <input type="hidden" name="report" value={header.report} />
            <label htmlFor={fields.sendTime.id} className="label">
              Send at ({zone})
            </label>
            <select {...getSelectProps(fields.sendTime)} className="input mb-1" key={fields.sendTime.key}>
              {SEND_HOURS.map((h) => (
                <option key={h} value={h}>
                  {formatSendHour(h)}
                </option>
              ))}
            </select>
            <ErrorList id={fields.sendTime.errorId} errors={fields.sendTime.errors} />
            <div className="mt-3">
              <SubmitButton name="intent" value="subscribe" pendingText="Subscribing…">
                Subscribe
              </SubmitButton>
            </div>
          </Form>
        )}
      </div>
    </details>
  );
}
