import { getCollectionProps, getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ErrorList, FormErrors, SubmitButton } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { confirmationNeeded, isConfirmationRequest } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { cancelQuestion, CHANNEL_LABELS, CHANNELS, scheduleSchema, scheduleSchemaAt } from "~/lib/schemas/broadcasts";
import { formatDateTime, toDateTimeInputAt } from "~/lib/time";
import { formatOffset } from "~/lib/time-zone";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";
import {
  cancelSchedule,
  createSchedule,
  groupChoices,
  listSchedules,
  SCHEDULE_PERMISSION,
  scheduleForCancel,
} from "~/services/marketing/schedules.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

// broadcast/{id}/schedules (docs/guide/marketing.md#schedules,
// docs/guide/access-control.md#what-each-permission-shows): the broadcast's schedules (channel, groups,
// created by, created at, dispatch at, status) and the Schedule form (create_groups): channel BOTH, SMS
// or EMAIL, one or more of the organisation's groups, now or at a time (the organisation's clock, as
// every time on the page). A schedule that has not
// started can be cancelled (create_groups), with a confirmation.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const list = parseListParams(new URL(request.url).searchParams);
  const { offsetMs } = ctx.org.clock;
  const { broadcast, rows, total } = await listSchedules(ctx, parseId(params.id), list);
  const canSchedule = ctx.permissions.has(SCHEDULE_PERMISSION);
  return json({
    orgId: ctx.org.id,
    broadcastId: broadcast.id,
    list,
    total,
    now: toDateTimeInputAt(Date.now(), offsetMs),
    zone: formatOffset(offsetMs),
    groups: canSchedule ? await groupChoices(ctx) : [],
    canSchedule,
    schedules: rows.map((s) => ({
      id: s.id,
      channel: CHANNEL_LABELS[s.channel],
      groups: s.groups.map((g) => g.name).join(", "),
      created_by: s.createdBy ? `${s.createdBy.first_name} ${s.createdBy.last_name}`.trim() : "—",
      created_at: formatDateTime(s.created_at, offsetMs),
      dispatch_at: formatDateTime(s.dispatch_at, offsetMs),
      status: s.status,
      error: s.error,
    })),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, SCHEDULE_PERMISSION);
  const broadcastId = parseId(params.id);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "schedule": {
      requirePermission(ctx, SCHEDULE_PERMISSION);
      const submission = parseForm(form, { schema: scheduleSchemaAt(ctx.org.clock.offsetMs) });
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const result = await createSchedule(ctx, broadcastId, submission.value);
      if (!result.ok) return json(submission.reply({ fieldErrors: result.errors }), { status: 400 });
      return redirectWithToast(request, `/${ctx.org.id}/broadcast/${broadcastId}/schedules`, result.message);
    }
    case "cancel": {
      const scheduleId = parseId(form.get("schedule_id"));
      const schedule = await scheduleForCancel(ctx, broadcastId, scheduleId);
      const ask = confirmationNeeded(
        form,
        "cancel",
        cancelQuestion(formatDateTime(schedule.dispatch_at, ctx.org.clock.offsetMs), formatOffset(ctx.org.clock.offsetMs)),
        { schedule_id: schedule.id },
      );
      if (ask) return json(ask);
      const outcome = await cancelSchedule(ctx, schedule.id, broadcastId);
      if (!outcome.ok) return json({ message: outcome.message }, { status: 409 });
      return redirectWithToast(request, `/${ctx.org.id}/broadcast/${broadcastId}/schedules`, { type: "info", message: outcome.message });
    }
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

function ScheduleForm({
  groups,
  now,
  zone,
  lastResult,
}: {
  groups: { id: number; name: string }[];
  now: string;
  zone: string;
  lastResult: SubmissionResult<string[]> | null;
}) {
  const [form, fields] = useForm({
    id: "schedule-broadcast",
    lastResult,
    defaultValue: { channel: "BOTH", dispatch: "now" },
    constraint: getZodConstraint(scheduleSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: scheduleSchema }),
  });
  const { key: dispatchAtKey, ...dispatchAtProps } = getInputProps(fields.dispatch_at, { type: "datetime-local" });
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-2xl">
      <FormErrors errors={form.errors} />
      <fieldset className="mb-4">
        <legend className="label">Channel</legend>
        <div className="flex flex-wrap gap-4">
          {getCollectionProps(fields.channel, { type: "radio", options: [...CHANNELS] }).map(({ key, ...props }) => (
            <label key={key} className="inline-flex items-center gap-2 text-sm">
              <input {...props} />
              {CHANNEL_LABELS[props.value as keyof typeof CHANNEL_LABELS]} ({props.value})
            </label>
          ))}
        </div>
        <ErrorList id={`${fields.channel.id}-error`} errors={fields.channel.errors} />
      </fieldset>
      <fieldset className="mb-4">
        <legend className="label">Customer groups</legend>
        {groups.length === 0 ? (
          <p className="text-sm text-slate-600">This organization has no customer groups yet: create one under Groups first.</p>
        ) : (
          <div className="grid max-h-64 gap-1 overflow-y-auto sm:grid-cols-2">
            {getCollectionProps(fields.groups, { type: "checkbox", options: groups.map((g) => String(g.id)) }).map(
              ({ key, ...props }, i) => (
                <label key={key} className="inline-flex items-center gap-2 text-sm">
                  <input {...props} />
                  {groups[i].name}
                </label>
              ),
            )}
          </div>
        )}
        <p className="mt-1 text-xs text-slate-500">A customer in several chosen groups gets the message once.</p>
        <ErrorList id={`${fields.groups.id}-error`} errors={fields.groups.errors} />
      </fieldset>
      <fieldset className="mb-4">
        <legend className="label">Dispatch</legend>
        <div className="flex flex-wrap items-center gap-4">
          {getCollectionProps(fields.dispatch, { type: "radio", options: ["now", "later"] }).map(({ key, ...props }) => (
            <label key={key} className="inline-flex items-center gap-2 text-sm">
              <input {...props} />
              {props.value === "now" ? "Now" : "At"}
            </label>
          ))}
          <input {...dispatchAtProps} key={dispatchAtKey} min={now} aria-label={`Dispatch at (${zone})`} className="input w-auto" />
        </div>
        <p className="mt-1 text-xs text-slate-500">
          Times are {zone}: it is now {now.replace("T", " ")}.
        </p>
        <ErrorList id={`${fields.dispatch_at.id}-error`} errors={fields.dispatch_at.errors} />
      </fieldset>
      <SubmitButton name="intent" value="schedule" pendingText="Scheduling…">
        Schedule
      </SubmitButton>
    </Form>
  );
}

export default function BroadcastSchedules() {
  const { orgId, broadcastId, list, total, now, zone, groups, canSchedule, schedules } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult =
    actionData && typeof actionData === "object" && !isConfirmationRequest(actionData) && !("message" in actionData)
      ? (actionData as SubmissionResult<string[]>)
      : null;
  return (
    <div className="space-y-4">
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/broadcast/${broadcastId}/schedules`} />
      {canSchedule ? (
        <section className="card">
          <h2 className="mb-3 text-lg font-semibold">Schedule</h2>
          <ScheduleForm key={total} groups={groups} now={now} zone={zone} lastResult={lastResult} />
        </section>
      ) : null}
      <section className="card">
        <h2 className="mb-3 text-lg font-semibold">Schedules</h2>
        <DataTable
          rows={schedules}
          rowKey={(s) => s.id}
          empty={total === 0 ? "Not scheduled yet." : "No schedules on this page."}
          columns={[
            { header: "#", cell: (_s, index) => rowNumber(list, index) },
            { header: "Channel", cell: (s) => s.channel },
            { header: "Groups", cell: (s) => s.groups },
            { header: "Created by", cell: (s) => s.created_by },
            { header: `Created at (${zone})`, nowrap: true, cell: (s) => s.created_at },
            { header: `Dispatch at (${zone})`, nowrap: true, cell: (s) => s.dispatch_at },
            {
              header: "Status",
              cell: (s) => (
                <>
                  {s.status}
                  {s.error ? <p className="text-xs text-red-800">{s.error}</p> : null}
                </>
              ),
            },
          ]}
          actions={(s) =>
            canSchedule && s.status === "Scheduled" ? (
              <ConfirmButton
                intent="cancel"
                fields={{ schedule_id: s.id }}
                message={cancelQuestion(s.dispatch_at, zone)}
                className="btn-secondary"
              >
                Cancel
              </ConfirmButton>
            ) : null
          }
        />
        <Pagination page={list.page} pageSize={list.pageSize} total={total} />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
