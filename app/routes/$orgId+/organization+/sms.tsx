import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { confirmationNeeded } from "~/lib/confirm";
import { SMS_MESSAGES_PER_SECOND, SMS_SETTINGS_MESSAGES, smsSettingsSchema } from "~/lib/schemas/sms-settings";
import { requireOrg, requireOwner, type OrgContext } from "~/services/guard.server";
import {
  getSmsCallbackUrls,
  getSmsSettings,
  removeSmsSettings,
  saveSmsSettings,
  type SmsSettingsView,
} from "~/services/marketing/sms/settings.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

// The organisation's SMS provider, Africa's Talking. Like M-Pesa:
// anyone with view_settings sees what is set; only the owner changes it and sees the callback URLs
// (their key is what authenticates delivery reports and STOP replies). The API key is write-only.

export const meta: MetaFunction = () => [{ title: "SMS · Mlango" }];

const REMOVE_MESSAGE = "Are you sure you want to remove the SMS settings? Broadcasts will no longer be sent by SMS.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const settings = await getSmsSettings(ctx);
  const callbackUrls = ctx.isOwner ? await getSmsCallbackUrls(ctx) : null;
  return json({ orgId: ctx.org.id, canEdit: ctx.isOwner, settings, callbackUrls });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  requireOwner(ctx);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "save":
      return save(request, ctx, form);
    case "remove": {
      const ask = confirmationNeeded(form, "remove", REMOVE_MESSAGE);
      if (ask) return json(ask);
      await removeSmsSettings(ctx);
      return redirectWithToast(request, `/${ctx.org.id}/organization/sms`, "SMS settings removed.");
    }
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

async function save(request: Request, ctx: OrgContext, form: FormData) {
  const submission = parseForm(form, { schema: smsSettingsSchema });
  // A typed API key is never sent back into the page, even when the form is refused.
  const refuse = (fieldErrors?: Record<string, string[]>) =>
    json({ result: submission.reply({ fieldErrors, hideFields: ["api_key"] }) }, { status: 400 });
  if (submission.status !== "success") return refuse();
  const saved = await saveSmsSettings(ctx, submission.value);
  if (saved === "api_key_missing") return refuse({ api_key: [SMS_SETTINGS_MESSAGES.apiKeyRequired] });
  return redirectWithToast(request, `/${ctx.org.id}/organization/sms`, "SMS settings saved.");
}

export default function SmsSettings() {
  const { orgId, canEdit, settings, callbackUrls } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "result" in actionData ? actionData.result : null;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold">SMS</h2>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Broadcasts are sent by SMS through your Africa&apos;s Talking account. Enter the app&apos;s username (sandbox for testing) and its
          API key. The key is stored encrypted and never shown again.
        </p>
        {canEdit ? null : (
          <p className="mt-2 text-sm text-slate-600">Only the organization&apos;s administrator can change the SMS settings.</p>
        )}
      </div>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/organization/sms`} />
      <section className="card" aria-labelledby="sms-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="sms-title" className="text-lg font-semibold">
            Africa&apos;s Talking
          </h3>
          <span className={`text-sm ${settings ? "font-medium text-green-700" : "text-slate-500"}`}>
            {settings ? "Set up" : "Not set up"}
          </span>
        </div>
        <div className="mt-4">
          {canEdit ? (
            <SmsForm key={settings?.updatedAt ?? "new"} settings={settings} lastResult={refused} />
          ) : (
            <SmsSummary settings={settings} />
          )}
        </div>
        {canEdit && settings ? (
          <div className="mt-4 flex flex-wrap gap-3 border-t border-slate-200 pt-4">
            <ConfirmButton intent="remove" message={REMOVE_MESSAGE}>
              Remove SMS
            </ConfirmButton>
          </div>
        ) : null}
        {callbackUrls ? (
          <div className="mt-4 space-y-2 text-sm text-slate-600">
            <p>In Africa&apos;s Talking&apos;s dashboard (SMS → Callback URLs), paste these addresses; keep them private:</p>
            <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[10rem_1fr]">
              <dt className="text-slate-500">Delivery reports</dt>
              <dd>
                <code className="break-all rounded bg-slate-100 px-1">{callbackUrls.delivery}</code>
              </dd>
              <dt className="text-slate-500">Incoming messages</dt>
              <dd>
                <code className="break-all rounded bg-slate-100 px-1">{callbackUrls.inbound}</code>
              </dd>
            </dl>
            <p>A customer who replies STOP is no longer sent broadcasts. Removing the settings changes these addresses.</p>
          </div>
        ) : null}
      </section>
    </div>
  );
}

function SmsForm({ settings, lastResult }: { settings: SmsSettingsView | null; lastResult: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: "sms-settings",
    lastResult,
    defaultValue: {
      username: settings?.username ?? "",
      sender_id: settings?.senderId ?? "",
      messages_per_second: String(settings?.messagesPerSecond ?? SMS_MESSAGES_PER_SECOND.default),
    },
    constraint: getZodConstraint(smsSettingsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: smsSettingsSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <Field
        label="Username"
        inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "off" }}
        errors={fields.username.errors}
        hint="Your Africa's Talking app's username; sandbox sends through their sandbox."
      />
      <Field
        label="API key"
        inputProps={{ ...getInputProps(fields.api_key, { type: "password" }), autoComplete: "new-password", required: !settings }}
        errors={fields.api_key.errors}
        hint={settings?.apiKeySet ? "Set. Leave empty to keep it; type a new one to replace it." : "Not set."}
      />
      <Field
        label="Sender ID"
        inputProps={{ ...getInputProps(fields.sender_id, { type: "text" }), autoComplete: "off" }}
        errors={fields.sender_id.errors}
        hint="The sender ID or short code Africa's Talking approved for you; leave empty to use their default."
      />
      <Field
        label="Messages per second"
        inputProps={{
          ...getInputProps(fields.messages_per_second, { type: "number" }),
          min: SMS_MESSAGES_PER_SECOND.min,
          max: SMS_MESSAGES_PER_SECOND.max,
          step: 1,
        }}
        errors={fields.messages_per_second.errors}
        hint={`How fast broadcasts are sent (${SMS_MESSAGES_PER_SECOND.min}–${SMS_MESSAGES_PER_SECOND.max}); keep it within your account's limit.`}
      />
      <SubmitButton name="intent" value="save" pendingText="Saving…">
        {settings ? "Update SMS" : "Save SMS"}
      </SubmitButton>
    </Form>
  );
}

function SmsSummary({ settings }: { settings: SmsSettingsView | null }) {
  if (!settings) return <p className="text-sm text-slate-600">Not configured.</p>;
  const rows: [string, string][] = [
    ["Username", settings.username],
    ["API key", settings.apiKeySet ? "Set" : "Not set"],
    ["Sender ID", settings.senderId ?? "Africa's Talking's default"],
    ["Messages per second", String(settings.messagesPerSecond)],
  ];
  return (
    <dl className="grid grid-cols-[12rem_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-500">{term}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
