// /{orgId}/ads/create (menu "Create Campaign", edit_ads; docs/guide/ads.md#campaigns): campaign name,
// client (advertiser) name, revenue in Ksh, activate and expire times (the organisation's clock), the networks it runs
// on (none ticked = every network) and the pause flag. Then the campaign's banners page.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList, Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ADS_MESSAGES, campaignSchema, campaignSchemaAt } from "~/lib/schemas/ads";
import { toDateTimeInputAt } from "~/lib/time";
import { formatOffset } from "~/lib/time-zone";
import { createCampaign, venuesBelong } from "~/services/ads/campaigns.server";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { venueOptions } from "~/services/venues.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Create Campaign | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_ads");
  const { offsetMs } = ctx.org.clock;
  return json({
    orgId: ctx.org.id,
    venues: await venueOptions(ctx),
    now: toDateTimeInputAt(Math.floor(Date.now() / 60_000) * 60_000, offsetMs),
    zone: formatOffset(offsetMs),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_ads");
  const submission = parseForm(await request.formData(), { schema: campaignSchemaAt(ctx.org.clock.offsetMs) });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  if (!(await venuesBelong(ctx, submission.value.venue_ids))) {
    return json(submission.reply({ fieldErrors: { venue_ids: [ADS_MESSAGES.foreignVenue] } }), { status: 422 });
  }
  const id = await createCampaign(ctx, submission.value);
  return redirectWithToast(request, `/${ctx.org.id}/ads/banners/${id}`, ADS_MESSAGES.created);
}

export default function CreateCampaign() {
  const { orgId, venues, now, zone } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { activate_time: now },
    constraint: getZodConstraint(campaignSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: campaignSchema }),
  });
  const chosen = new Set([fields.venue_ids.initialValue ?? []].flat().map(String));
  return (
    <section className="card">
      <h1 className="mb-1 text-xl font-semibold">Create Campaign</h1>
      <p className="mb-4 text-sm text-slate-600">
        Mlango shows the campaign's banners on the guest connect page of the networks it runs on. Times are {zone}.
      </p>
      <Form method="post" {...getFormProps(form)} className="max-w-xl">
        <FormErrors errors={form.errors} />
        <Field
          label="Campaign name"
          inputProps={getInputProps(fields.campaignname, { type: "text" })}
          errors={fields.campaignname.errors}
        />
        <Field
          label="Client name"
          inputProps={getInputProps(fields.clientname, { type: "text" })}
          errors={fields.clientname.errors}
          hint="The advertiser."
        />
        <Field
          label="Revenue (Ksh)"
          inputProps={{ ...getInputProps(fields.revenue, { type: "text" }), inputMode: "decimal", placeholder: "0.00" }}
          errors={fields.revenue.errors}
        />
        <Field
          label={`Activate time (${zone})`}
          inputProps={getInputProps(fields.activate_time, { type: "datetime-local" })}
          errors={fields.activate_time.errors}
        />
        <Field
          label={`Expire time (${zone})`}
          inputProps={getInputProps(fields.expire_time, { type: "datetime-local" })}
          errors={fields.expire_time.errors}
          hint="Leave empty to run until paused."
        />
        <fieldset className="mb-4">
          <legend className="label">Networks</legend>
          <p className="mb-2 text-xs text-slate-500">None ticked: every network of the organization, including networks added later.</p>
          {venues.length === 0 ? <p className="text-sm text-slate-500">This organization has no networks yet.</p> : null}
          <div className="grid gap-1 sm:grid-cols-2">
            {venues.map((v) => (
              <label key={v.value} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name={fields.venue_ids.name} value={v.value} defaultChecked={chosen.has(v.value)} />
                {v.label}
              </label>
            ))}
          </div>
          <ErrorList id={`${fields.venue_ids.id}-error`} errors={fields.venue_ids.errors} />
        </fieldset>
        <label className="mb-4 flex items-center gap-2 text-sm">
          <input type="checkbox" name={fields.pause.name} defaultChecked={fields.pause.initialValue === "on"} />
          Paused (create it without showing it yet)
        </label>
        <div className="flex gap-2">
          <SubmitButton pendingText="Creating…">Create campaign</SubmitButton>
          <Link to={`/${orgId}/ads/campaigns`} className="btn-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
