import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ErrorList, FormErrors, SubmitButton } from "~/components/ui/field";
import { hasAny } from "~/lib/permissions";
import { parseId } from "~/lib/ids";
import { broadcastSmsSchema, SMS_MAX_SEGMENTS, SMS_STOP_LINE } from "~/lib/schemas/broadcasts";
import { smsCount, smsCountText } from "~/lib/sms-segments";
import { requireOrg } from "~/services/guard.server";
import { EDIT_BROADCASTS, getBroadcast, updateBroadcastSms, VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

// broadcast/{id}/sms (docs/guide/marketing.md#sms-text-editor): the SMS text with its length in
// characters and parts (GSM-7 160/153, UCS-2 70/67; app/lib/sms-segments.ts), counted live as it is
// typed and, for the saved text, on the server (the count shown without JavaScript and after
// saving).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const b = await getBroadcast(ctx, parseId(params.id));
  const sms = b.sms ?? "";
  return json({
    broadcast: { id: b.id, updated_at: b.updated_at },
    sms,
    count: smsCount(sms),
    canEdit: hasAny(ctx.permissions, ...EDIT_BROADCASTS),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, ...EDIT_BROADCASTS);
  const id = parseId(params.id);
  await getBroadcast(ctx, id); // 404 before the form is looked at
  const submission = parseForm(await request.formData(), { schema: broadcastSmsSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { message } = await updateBroadcastSms(ctx, id, submission.value);
  const count = smsCount(submission.value.sms ?? "");
  return redirectWithToast(request, `/${ctx.org.id}/broadcast/${id}/sms`, count.segments ? `${message} ${smsCountText(count)}.` : message);
}

function SmsForm({ sms, canEdit }: { sms: string; canEdit: boolean }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "broadcast-sms",
    lastResult,
    defaultValue: { sms },
    constraint: getZodConstraint(broadcastSmsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: broadcastSmsSchema }),
  });
  // The live count: rendered on the server (for the saved text, or the refused one), then updated as it is typed.
  const posted = lastResult?.initialValue?.sms;
  const [text, setText] = useState(typeof posted === "string" ? posted : sms);
  const count = smsCount(text);
  const { key, ...props } = getTextareaProps(fields.sms);
  const errorId = fields.sms.errors?.length ? `${fields.sms.id}-error` : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-2xl">
      <FormErrors errors={form.errors} />
      <div className="mb-4">
        <label htmlFor={fields.sms.id} className="label">
          SMS text
        </label>
        <textarea
          key={key}
          {...props}
          rows={6}
          readOnly={!canEdit}
          onChange={(event) => setText(event.currentTarget.value)}
          className="input"
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[`${fields.sms.id}-count`, errorId].filter(Boolean).join(" ")}
        />
        <p
          id={`${fields.sms.id}-count`}
          aria-live="polite"
          className={`mt-1 text-sm ${count.segments > SMS_MAX_SEGMENTS ? "text-red-800" : "text-slate-600"}`}
        >
          {smsCountText(count)}
        </p>
        <p className="mt-1 text-xs text-slate-500">
          Every SMS is sent with “{SMS_STOP_LINE}” on a last line: a reply of STOP opts the number out.
        </p>
        <ErrorList id={errorId} errors={fields.sms.errors} />
      </div>
      {canEdit ? (
        <SubmitButton pendingText="Saving…">Save SMS</SubmitButton>
      ) : (
        <p className="text-sm text-slate-600">Changing the SMS needs the Create broadcasts permission.</p>
      )}
    </Form>
  );
}

export default function BroadcastSms() {
  const { broadcast, sms, count, canEdit } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">SMS</h2>
      <p className="mb-4 text-sm text-slate-600">
        One SMS holds 160 characters of the GSM alphabet (153 each when a text takes several), or 70 (67) with other characters such as
        emoji or curly quotes. Each part is paid for; at most {SMS_MAX_SEGMENTS} parts.
      </p>
      <p className="mb-4 text-sm">Saved: {count.segments ? smsCountText(count) : "no SMS yet"}.</p>
      <SmsForm key={broadcast.updated_at} sms={sms} canEdit={canEdit} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
