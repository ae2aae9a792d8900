import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { confirmationNeeded } from "~/lib/confirm";
import { MPESA_MESSAGES, mpesaSettingsSchema } from "~/lib/schemas/mpesa";
import { requireOrg, requireOwner, type OrgContext } from "~/services/guard.server";
import {
  getMpesaCallbackUrl,
  getMpesaSettings,
  removeMpesaSettings,
  saveMpesaSettings,
  testMpesaConnection,
  type MpesaSettingsView,
} from "~/services/prepaid/mpesa-settings.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

// The organisation's M-Pesa (Daraja) credentials. Anyone with view_settings
// sees what is set; only the owner changes it (like guest sign-in). The consumer secret and the
// passkey are write-only: the page says whether they are set, never what they are.

export const meta: MetaFunction = () => [{ title: "M-Pesa · Mlango" }];

const ENVIRONMENT_OPTIONS = [
  { value: "sandbox", label: "Sandbox (testing)" },
  { value: "production", label: "Production (real payments)" },
] as const;
const TYPE_OPTIONS = [
  { value: "paybill", label: "Paybill" },
  { value: "till", label: "Till (Buy Goods)" },
] as const;
const SECRET_FIELDS = ["consumer_secret", "passkey", "security_credential"];
const REMOVE_MESSAGE = "Are you sure you want to remove the M-Pesa settings? Guests will no longer be able to pay with M-Pesa.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const settings = await getMpesaSettings(ctx);
  const callbackUrl = ctx.isOwner ? await getMpesaCallbackUrl(ctx) : null;
  return json({ orgId: ctx.org.id, canEdit: ctx.isOwner, settings, callbackUrl });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  requireOwner(ctx);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "save":
      return save(request, ctx, form);
    case "test":
      return json({ test: await testMpesaConnection(ctx) });
    case "remove": {
      const ask = confirmationNeeded(form, "remove", REMOVE_MESSAGE);
      if (ask) return json(ask);
      await removeMpesaSettings(ctx);
      return redirectWithToast(request, `/${ctx.org.id}/organization/mpesa`, "M-Pesa settings removed.");
    }
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

async function save(request: Request, ctx: OrgContext, form: FormData) {
  const submission = parseForm(form, { schema: mpesaSettingsSchema });
  // Typed secrets are never sent back into the page, even when the form is refused.
  const refuse = (fieldErrors?: Record<string, string[]>) =>
    json({ result: submission.reply({ fieldErrors, hideFields: SECRET_FIELDS }) }, { status: 400 });
  if (submission.status !== "success") return refuse();
  const saved = await saveMpesaSettings(ctx, submission.value);
  if (saved !== "saved") {
    const messages = { consumer_secret: MPESA_MESSAGES.consumerSecretRequired, passkey: MPESA_MESSAGES.passkeyRequired };
    return refuse(Object.fromEntries(saved.missing.map((field) => [field, [messages[field]]])));
  }
  return redirectWithToast(request, `/${ctx.org.id}/organization/mpesa`, "M-Pesa settings saved.");
}

export default function Mpesa() {
  const { orgId, canEdit, settings, callbackUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "result" in actionData ? actionData.result : null;
  const test = actionData && "test" in actionData ? actionData.test : null;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold">M-Pesa</h2>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Guests pay for plans with M-Pesa through your app on Safaricom&apos;s Daraja portal. Enter the app&apos;s consumer key and secret,
          and the shortcode and passkey Safaricom gave you. The secret and the passkey are stored encrypted and never shown again.
        </p>
        {canEdit ? null : (
          <p className="mt-2 text-sm text-slate-600">Only the organization&apos;s administrator can change the M-Pesa settings.</p>
        )}
      </div>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/organization/mpesa`} />
      {test ? (
        <div
          role="status"
          data-test-connection={test.ok ? "ok" : "failed"}
          className={`rounded-md border px-4 py-3 text-sm ${test.ok ? "border-green-300 bg-green-50 text-green-800" : "border-red-300 bg-red-50 text-red-800"}`}
        >
          {test.message}
        </div>
      ) : null}
      <section className="card" aria-labelledby="mpesa-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="mpesa-title" className="text-lg font-semibold">
            Daraja credentials
          </h3>
          <span className={`text-sm ${settings ? "font-medium text-green-700" : "text-slate-500"}`}>
            {settings ? "Set up" : "Not set up"}
          </span>
        </div>
        <div className="mt-4">
          {canEdit ? (
            <MpesaForm key={settings?.updatedAt ?? "new"} settings={settings} lastResult={refused} />
          ) : (
            <MpesaSummary settings={settings} />
          )}
        </div>
        {canEdit && settings ? (
          <div className="mt-4 flex flex-wrap gap-3 border-t border-slate-200 pt-4">
            <Form method="post">
              <SubmitButton name="intent" value="test" className="btn-secondary" pendingText="Testing…">
                Test connection
              </SubmitButton>
            </Form>
            <ConfirmButton intent="remove" message={REMOVE_MESSAGE}>
              Remove M-Pesa
            </ConfirmButton>
          </div>
        ) : null}
        {callbackUrl ? (
          <p className="mt-4 text-sm text-slate-600">
            Payment results come back to <code className="break-all rounded bg-slate-100 px-1">{callbackUrl}</code>. Mlango sends this
            address with each payment request; keep it private.
          </p>
        ) : null}
      </section>
    </div>
  );
}

function MpesaForm({ settings, lastResult }: { settings: MpesaSettingsView | null; lastResult: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: "mpesa-settings",
    lastResult,
    defaultValue: {
      environment: settings?.environment ?? "sandbox",
      type: settings?.type ?? "paybill",
      consumer_key: settings?.consumerKey ?? "",
      shortcode: settings?.shortcode ?? "",
      party_b: settings ? settings.partyB : "",
      initiator_name: settings?.initiatorName ?? "",
    },
    constraint: getZodConstraint(mpesaSettingsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: mpesaSettingsSchema }),
  });
  const keep = "Set. Leave empty to keep it; type a new one to replace it.";
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <SelectField
        label="Environment"
        selectProps={getSelectProps(fields.environment)}
        options={ENVIRONMENT_OPTIONS}
        errors={fields.environment.errors}
      />
      <Field
        label="Consumer key"
        inputProps={{ ...getInputProps(fields.consumer_key, { type: "text" }), autoComplete: "off" }}
        errors={fields.consumer_key.errors}
      />
      <Field
        label="Consumer secret"
        inputProps={{ ...getInputProps(fields.consumer_secret, { type: "password" }), autoComplete: "new-password", required: !settings }}
        errors={fields.consumer_secret.errors}
        hint={settings?.consumerSecretSet ? keep : "Not set."}
      />
      <SelectField label="Type" selectProps={getSelectProps(fields.type)} options={TYPE_OPTIONS} errors={fields.type.errors} />
      <Field
        label="Shortcode"
        inputProps={{ ...getInputProps(fields.shortcode, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
        errors={fields.shortcode.errors}
        hint="The paybill number, or the store number of a till (the BusinessShortCode)."
      />
      <Field
        label="Passkey"
        inputProps={{ ...getInputProps(fields.passkey, { type: "password" }), autoComplete: "new-password", required: !settings }}
        errors={fields.passkey.errors}
        hint={settings?.passkeySet ? keep : "Not set. Safaricom sends it when the shortcode goes live on Daraja."}
      />
      <Field
        label="Till or paybill number"
        inputProps={{ ...getInputProps(fields.party_b, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
        errors={fields.party_b.errors}
        hint="Where the money goes: the till number for a till; for a paybill, leave empty to use the shortcode."
      />
      <Field
        label="Initiator name"
        inputProps={{ ...getInputProps(fields.initiator_name, { type: "text" }), autoComplete: "off" }}
        errors={fields.initiator_name.errors}
        hint="Optional: the API user of your Daraja app, for checking receipt codes and refunding payments."
      />
      <Field
        label="Security credential"
        inputProps={{ ...getInputProps(fields.security_credential, { type: "password" }), autoComplete: "new-password" }}
        errors={fields.security_credential.errors}
        hint={
          settings?.securityCredentialSet
            ? keep
            : "Optional: the initiator's password encrypted with Safaricom's certificate, as the Daraja portal gives it."
        }
      />
      <SubmitButton name="intent" value="save" pendingText="Saving…">
        {settings ? "Update M-Pesa" : "Save M-Pesa"}
      </SubmitButton>
    </Form>
  );
}

function MpesaSummary({ settings }: { settings: MpesaSettingsView | null }) {
  if (!settings) return <p className="text-sm text-slate-600">Not configured.</p>;
  const rows: [string, string][] = [
    ["Environment", settings.environment === "production" ? "Production" : "Sandbox"],
    ["Consumer key", settings.consumerKey],
    ["Consumer secret", settings.consumerSecretSet ? "Set" : "Not set"],
    ["Type", settings.type === "till" ? "Till" : "Paybill"],
    ["Shortcode", settings.shortcode],
    ["Passkey", settings.passkeySet ? "Set" : "Not set"],
    ["Till or paybill number", settings.partyB],
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
