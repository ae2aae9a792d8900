import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ConfirmButton } from "~/components/ui/confirm";
import { ErrorList, Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import {
  FORGET_CERTIFICATE_QUESTION,
  gatewaySettingsSchema,
  GUEST_LANGUAGE_OPTIONS,
  SESSION_MINUTES_MAX,
} from "~/lib/schemas/gateway-settings";
import type { Revocation } from "~/services/portal/gateways/types";
import type { GatewaySettings as GatewaySettingsView } from "~/services/portal/settings.server";

// The network settings page's "Guest portal" section: for each gateway make the exact URL to paste
// and short steps (everyone who sees the network), then the settings form and a new portal key (edit_networks).
// Secrets are never in the page: their fields are empty, with a hint saying whether one is set.

const CLOSING: Record<Revocation, string> = {
  controller: "Closing a connection in the console cuts the guest off through the controller.",
  poll: "Closing a connection in the console puts the guest on the revocation list the gateway polls.",
  none: "Closing a connection in the console cannot reach this gateway: the guest stays online until the session ends there.",
};

const SIGNUP_FIELD_OPTIONS = [
  { value: "required", label: "Required" },
  { value: "optional", label: "Optional" },
  { value: "off", label: "Not asked" },
];

const GUEST_SIGNUP_OPTIONS = [
  { value: "1", label: "Sign-up form: guests fill in the fields asked below" },
  { value: "0", label: "Click-through: one Connect button" },
];

interface GatewaySettingsProps {
  settings: GatewaySettingsView;
  canEdit: boolean;
  lastResult?: SubmissionResult<string[]> | null;
  regenerateQuestion: string;
}

export function GatewaySettings({ settings, canEdit, lastResult, regenerateQuestion }: GatewaySettingsProps) {
  return (
    <section className="card" aria-labelledby="guest-portal-title">
      <h2 id="guest-portal-title" className="text-lg font-semibold">
        Guest portal
      </h2>
      <p className="mb-4 mt-1 text-sm text-slate-600">
        Point this network&apos;s gateways at the URL of their make. The portal key in these URLs identifies the network: give it to your
        gateways only.
      </p>
      <GatewayUrls gateways={settings.gateways} />
      {canEdit ? (
        <>
          <div className="mb-6 flex flex-wrap items-center gap-3 text-sm text-slate-600">
            <ConfirmButton intent="regenerate-portal-key" message={regenerateQuestion} className="btn-secondary">
              New portal key
            </ConfirmButton>
            <span>If a URL has leaked: the current URLs stop working and every gateway needs the new one.</span>
          </div>
          <GatewaySettingsForm settings={settings} lastResult={lastResult} />
          {settings.unifi_url ? <UnifiConnection fingerprint={settings.unifi_fingerprint} /> : null}
        </>
      ) : (
        <p className="text-sm text-slate-600">Changing the guest portal settings needs the Edit networks permission.</p>
      )}
    </section>
  );
}

function GatewayUrls({ gateways }: { gateways: GatewaySettingsView["gateways"] }) {
  return (
    <div className="mb-6 space-y-4">
      {gateways.map((g) => (
        <div key={g.make} className="rounded-md border border-slate-200 p-4">
          <h3 className="font-medium">{g.label}</h3>
          <p className="mt-2 text-sm">
            <code data-gateway-url={g.make} className="block break-all rounded bg-slate-100 px-2 py-1">
              {g.url}
            </code>
          </p>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
            {g.steps.map((step) => {
              // A step's first line says what to do; the lines after it are a configuration block.
              const [text, ...block] = step.split("\n");
              return (
                <li key={step}>
                  {text}
                  {block.length > 0 ? (
                    <pre className="mt-1 overflow-x-auto rounded bg-slate-100 p-2 text-xs">{block.join("\n")}</pre>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <p className="mt-2 text-xs text-slate-500">{CLOSING[g.revocation]}</p>
        </div>
      ))}
    </div>
  );
}

function secretHint(set: boolean, unset: string): string {
  return set ? "Set — leave empty to keep it." : unset;
}

function GatewaySettingsForm({ settings, lastResult }: { settings: GatewaySettingsView; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: "gateway",
    lastResult,
    defaultValue: {
      unifi_url: settings.unifi_url ?? "",
      unifi_username: settings.unifi_username ?? "",
      session_minutes: String(settings.session_minutes),
      guest_signup: settings.guest_signup ? "1" : "0",
      guest_language: settings.guest_language,
      signup_phone: settings.signup_phone,
      signup_email: settings.signup_email,
      signup_names: settings.signup_names,
      terms_url: settings.terms_url ?? "",
      privacy_url: settings.privacy_url ?? "",
      splash_page_id: settings.splash_page_id ? String(settings.splash_page_id) : "",
    },
    constraint: getZodConstraint(gatewaySettingsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: gatewaySettingsSchema }),
  });
  const secret = (field: FieldMetadata<string>) => ({ ...getInputProps(field, { type: "password" }), autoComplete: "off" });
  const unifiSet = Boolean(settings.unifi_url || settings.unifi_username || settings.unifi_password_set);
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-2xl">
      <FormErrors errors={form.errors} />
      <Field
        label="Gateway secret"
        inputProps={secret(fields.gateway_secret)}
        errors={fields.gateway_secret.errors}
        hint={secretHint(
          settings.gateway_secret_set,
          "Not set. 24 to 256 characters (for example the output of openssl rand -hex 24): gateways send it with accounting, and Mlango gateways sign with it.",
        )}
      />

      <h3 className="mb-2 mt-6 font-medium">openNDS</h3>
      <Field
        label="openNDS faskey"
        inputProps={secret(fields.opennds_faskey)}
        errors={fields.opennds_faskey.errors}
        hint={secretHint(settings.opennds_faskey_set, "Not set. The same value as option faskey in the router's /etc/config/opennds.")}
      />
      {settings.opennds_faskey_set ? <ClearCheckbox field={fields.clear_opennds_faskey} label="Remove the faskey" /> : null}

      <h3 className="mb-2 mt-6 font-medium">UniFi controller</h3>
      <Field
        label="Controller URL"
        inputProps={{ ...getInputProps(fields.unifi_url, { type: "url" }), placeholder: "https://unifi.example.com:8443" }}
        errors={fields.unifi_url.errors}
      />
      <Field
        label="Controller username"
        inputProps={{ ...getInputProps(fields.unifi_username, { type: "text" }), autoComplete: "off" }}
        errors={fields.unifi_username.errors}
      />
      <Field
        label="Controller password"
        inputProps={secret(fields.unifi_password)}
        errors={fields.unifi_password.errors}
        hint={secretHint(settings.unifi_password_set, "Not set.")}
      />
      {unifiSet ? <ClearCheckbox field={fields.clear_unifi} label="Remove the UniFi controller (URL, username and password)" /> : null}

      <h3 className="mb-2 mt-6 font-medium">Guests</h3>
      <Field
        label="Session length (minutes)"
        inputProps={{ ...getInputProps(fields.session_minutes, { type: "number" }), min: 1, max: SESSION_MINUTES_MAX, step: 1 }}
        errors={fields.session_minutes.errors}
        hint="How long a guest stays online after connecting, 1 to 43200 (30 days)."
      />
      <SelectField
        label="Connect page"
        selectProps={getSelectProps(fields.guest_signup)}
        options={GUEST_SIGNUP_OPTIONS}
        errors={fields.guest_signup.errors}
      />
      <fieldset className="mb-4 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-medium">Sign-up fields</legend>
        <p className="mb-2 text-sm text-slate-600">
          Ask only what you need: a phone number alone is enough to sign up. The privacy notice guests see lists what is asked.
        </p>
        <SelectField
          label="Phone number"
          selectProps={getSelectProps(fields.signup_phone)}
          options={SIGNUP_FIELD_OPTIONS}
          errors={fields.signup_phone.errors}
        />
        <SelectField
          label="E-mail address"
          selectProps={getSelectProps(fields.signup_email)}
          options={SIGNUP_FIELD_OPTIONS}
          errors={fields.signup_email.errors}
        />
        <SelectField
          label="First and last name"
          selectProps={getSelectProps(fields.signup_names)}
          options={SIGNUP_FIELD_OPTIONS}
          errors={fields.signup_names.errors}
        />
      </fieldset>
      <SelectField
        label="Guest page language"
        selectProps={getSelectProps(fields.guest_language)}
        options={GUEST_LANGUAGE_OPTIONS}
        errors={fields.guest_language.errors}
      />
      <p className="-mt-3 mb-4 text-sm text-slate-600">
        Used when a guest&apos;s phone asks for neither English nor Kiswahili; every guest page has a link to the other language.
      </p>
      <SelectField
        label="Splash page"
        selectProps={getSelectProps(fields.splash_page_id)}
        placeholder="Built-in page"
        options={settings.splash_pages.map((p) => ({ value: String(p.id), label: p.name }))}
        errors={fields.splash_page_id.errors}
      />
      <p className="-mt-3 mb-4 text-sm text-slate-600">
        Guests see this published page around the connect form, unless a splash page&apos;s display rule picks another.
      </p>
      <Field
        label="Terms URL"
        inputProps={{ ...getInputProps(fields.terms_url, { type: "url" }), placeholder: "https://example.com/terms" }}
        errors={fields.terms_url.errors}
        hint="Optional: the terms guests accept when they sign up."
      />
      <Field
        label="Privacy notice URL"
        inputProps={{ ...getInputProps(fields.privacy_url, { type: "url" }), placeholder: "https://example.com/privacy" }}
        errors={fields.privacy_url.errors}
        hint="Optional: your own privacy policy, linked from the privacy notice Mlango writes for guests from this network's settings."
      />
      <SubmitButton name="intent" value="gateway" pendingText="Saving…">
        Save guest portal settings
      </SubmitButton>
    </Form>
  );
}

function ClearCheckbox({ field, label }: { field: FieldMetadata<string | undefined>; label: string }) {
  const { key, ...props } = getInputProps(field, { type: "checkbox" });
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  return (
    <div className="-mt-2 mb-4">
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input key={key} {...props} aria-describedby={errorId} />
        {label}
      </label>
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}

/**
 * The saved controller: test the connection (a self-signed certificate is answered with the question
 * whether to trust its fingerprint), and the certificate trusted, which may be removed.
 */
function UnifiConnection({ fingerprint }: { fingerprint: string | null }) {
  return (
    <div className="mt-6 border-t border-slate-200 pt-4 text-sm">
      <h3 className="mb-2 font-medium">UniFi controller connection</h3>
      <p className="mb-2 text-slate-600">
        {fingerprint ? (
          <>
            Trusted certificate (SHA-256): <code className="break-all">{fingerprint}</code>
          </>
        ) : (
          "Only a certificate a public authority signed for the controller's address is accepted. A controller with its own self-signed certificate: test the connection to see its fingerprint and decide whether to trust it."
        )}
      </p>
      <div className="flex flex-wrap gap-3">
        <Form method="post">
          <button type="submit" name="intent" value="test-unifi" className="btn-secondary">
            Test connection
          </button>
        </Form>
        {fingerprint ? (
          <ConfirmButton intent="forget-unifi-certificate" message={FORGET_CERTIFICATE_QUESTION} className="btn-secondary">
            Remove the trusted certificate
          </ConfirmButton>
        ) : null}
      </div>
    </div>
  );
}
