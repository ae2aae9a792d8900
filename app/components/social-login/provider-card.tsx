import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ConfirmButton } from "~/components/ui/confirm";
import { Field, FormErrors, SubmitButton } from "~/components/ui/field";
import type { OAuthProviderName } from "~/db/schema";
import { AJIRA_DOMAIN, socialLoginSchema } from "~/lib/schemas/social-login";

// One provider on the organisation's "Guest sign-in" page: the redirect URI to register at the
// provider, then its form (owner) or what is set (everyone else). The client secret is
// write-only: the page says whether one is set, never what it is.

export interface ProviderView {
  provider: OAuthProviderName;
  label: string;
  redirectUri: string;
  configured: boolean;
  clientId: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  updatedAt: number | null;
}

interface ProviderCardProps {
  view: ProviderView;
  canEdit: boolean;
  lastResult?: SubmissionResult<string[]> | null;
}

export function ProviderCard({ view, canEdit, lastResult }: ProviderCardProps) {
  return (
    <section className="card" aria-labelledby={`social-${view.provider}-title`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`social-${view.provider}-title`} className="text-lg font-semibold">
          {view.label}
        </h3>
        <span className={`text-sm ${view.configured ? "font-medium text-green-700" : "text-slate-500"}`}>
          {view.configured ? "On" : "Off"}
        </span>
      </div>
      <p className="mt-2 text-sm text-slate-600">Redirect URI to register at {view.label}:</p>
      <code data-redirect-uri={view.provider} className="mt-1 block break-all rounded bg-slate-100 px-2 py-1 text-sm">
        {view.redirectUri}
      </code>
      <div className="mt-4">{canEdit ? <ProviderForm view={view} lastResult={lastResult} /> : <ProviderSummary view={view} />}</div>
    </section>
  );
}

function ProviderForm({ view, lastResult }: { view: ProviderView; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: `social-${view.provider}`,
    lastResult,
    defaultValue: {
      provider: view.provider,
      client_id: view.clientId,
      authorize_url: view.authorizeUrl,
      token_url: view.tokenUrl,
      userinfo_url: view.userinfoUrl,
    },
    constraint: getZodConstraint(socialLoginSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: socialLoginSchema }),
  });
  const isAjira = view.provider === "ajira";
  return (
    <>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <input type="hidden" name={fields.provider.name} value={view.provider} />
        <Field
          label="Client ID"
          inputProps={{ ...getInputProps(fields.client_id, { type: "text" }), autoComplete: "off" }}
          errors={fields.client_id.errors}
        />
        <Field
          label="Client secret"
          inputProps={{ ...getInputProps(fields.client_secret, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.client_secret.errors}
          hint={view.configured ? "Set. Leave empty to keep it; type a new one to replace it." : "Not set."}
        />
        {isAjira ? (
          <>
            <Field
              label="Authorization URL"
              inputProps={{ ...getInputProps(fields.authorize_url, { type: "url" }), placeholder: "https://…" }}
              errors={fields.authorize_url.errors}
            />
            <Field
              label="Token URL"
              inputProps={{ ...getInputProps(fields.token_url, { type: "url" }), placeholder: "https://…" }}
              errors={fields.token_url.errors}
            />
            <Field
              label="User info URL"
              inputProps={{ ...getInputProps(fields.userinfo_url, { type: "url" }), placeholder: "https://…" }}
              errors={fields.userinfo_url.errors}
              hint={`Ajira Digital's addresses, from your registration there (https, on ${AJIRA_DOMAIN}).`}
            />
          </>
        ) : null}
        <SubmitButton name="intent" value="save" pendingText="Saving…">
          {view.configured ? `Update ${view.label}` : `Turn on ${view.label}`}
        </SubmitButton>
      </Form>
      {view.configured ? (
        <div className="mt-3">
          <ConfirmButton
            intent="remove"
            fields={{ provider: view.provider }}
            message={`Are you sure you want to remove ${view.label} sign-in? Guests will no longer see “Continue with ${view.label}”.`}
          >
            Remove {view.label}
          </ConfirmButton>
        </div>
      ) : null}
    </>
  );
}

function ProviderSummary({ view }: { view: ProviderView }) {
  if (!view.configured) return <p className="text-sm text-slate-600">Not configured.</p>;
  const rows: [string, string][] = [
    ["Client ID", view.clientId],
    ["Client secret", "Set"],
    ...(view.provider === "ajira"
      ? ([
          ["Authorization URL", view.authorizeUrl],
          ["Token URL", view.tokenUrl],
          ["User info URL", view.userinfoUrl],
        ] as [string, string][])
      : []),
  ];
  return (
    <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-500">{term}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
