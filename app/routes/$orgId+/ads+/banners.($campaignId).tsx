// /{orgId}/ads/banners/{campaignId?} (docs/guide/ads.md#banners; view_ads): the banners
// of one campaign (or of all), each with a full-size preview, its size read from the image, active
// flag and click-through URL. Uploading (edit_ads): PNG, JPEG, WebP or GIF decided by the file's
// bytes (never SVG), at most 2 MB, a click-through URL that is http or https.
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { parseId } from "~/lib/ids";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { ADS_MESSAGES, bannerSchema } from "~/lib/schemas/ads";
import {
  campaignOptions,
  createBanner,
  getCampaign,
  listBanners,
  readBannerUpload,
  setBannerActive,
} from "~/services/ads/campaigns.server";
import { notFound, requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { Time } from "~/components/ui/time";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Banners | Mlango" }];

/** The campaign of the URL (null: every campaign); another organisation's or a malformed id is a 404. */
function campaignParam(raw: string | undefined): number | null | "bad" {
  if (raw === undefined) return null;
  return parseId(raw) ?? "bad";
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_ads");
  const campaignId = campaignParam(params.campaignId);
  if (campaignId === "bad") notFound(ADS_MESSAGES.campaignNotFound);
  const campaign = campaignId === null ? null : await getCampaign(ctx, campaignId);
  const list = parseListParams(new URL(request.url).searchParams);
  const [page, campaigns] = await Promise.all([listBanners(ctx, campaignId, list), campaignOptions(ctx)]);
  return json({
    orgId: ctx.org.id,
    campaign: campaign && { id: campaign.id, name: campaign.name, derivedStatus: campaign.derivedStatus },
    campaigns,
    page,
    list,
    canEdit: ctx.permissions.has("edit_ads"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_ads");
  const campaignId = campaignParam(params.campaignId);
  if (campaignId === "bad") notFound(ADS_MESSAGES.campaignNotFound);
  const here = `/${ctx.org.id}/ads/banners${campaignId === null ? "" : `/${campaignId}`}`;
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    const upload = await readBannerUpload(request);
    const submission = parseForm(upload.fields, { schema: bannerSchema });
    if (submission.status !== "success") return json(submission.reply(), { status: 400 });
    if (!upload.ok)
      return json(submission.reply({ formErrors: [upload.message.includes("too large") ? ADS_MESSAGES.tooLarge : upload.message] }), {
        status: upload.message.includes("too large") ? 413 : 422,
      });
    const outcome = await createBanner(ctx, submission.value, upload.image);
    if (!outcome.ok)
      return json(
        submission.reply({
          fieldErrors: outcome.field === "file" ? {} : { [outcome.field]: [outcome.message] },
          formErrors: outcome.field === "file" ? [outcome.message] : [],
        }),
        { status: 422 },
      );
    return redirectWithToast(request, here, ADS_MESSAGES.bannerUploaded);
  }
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "activate" && intent !== "deactivate")
    return json({ status: "error" as const, error: { "": ["Unknown action."] } }, { status: 400 });
  await setBannerActive(ctx, parseId(form.get("id")), intent === "activate");
  return redirectWithToast(request, here, intent === "activate" ? ADS_MESSAGES.bannerActivated : ADS_MESSAGES.bannerDeactivated);
}

export default function Banners() {
  const { orgId, campaign, campaigns, page, list, canEdit } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: lastResult && "initialValue" in lastResult ? lastResult : undefined,
    defaultValue: { campaign_id: campaign ? String(campaign.id) : "", active: "on" },
    constraint: getZodConstraint(bannerSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bannerSchema }),
  });
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/ads/campaigns`} className="link">
          Campaign List
        </Link>{" "}
        › <span>{campaign ? campaign.name : "All banners"}</span>
      </nav>
      <section className="card">
        <h1 className="mb-3 text-xl font-semibold">
          Banners{campaign ? ` of ${campaign.name}` : ""}
          {campaign ? <span className="ml-2 text-sm font-normal text-slate-500">({campaign.derivedStatus})</span> : null}
        </h1>
        <DataTable
          rows={page.rows}
          rowKey={(b) => b.id}
          empty="No banners yet."
          columns={[
            { header: "#", cell: (_b, index) => rowNumber(list, index) },
            {
              header: "Banner",
              cell: (b) => (
                <>
                  <img src={b.imagePath} alt={b.description ?? "Banner"} className="max-h-16 max-w-[12rem] rounded border" />
                  <details className="mt-1 text-xs">
                    <summary className="cursor-pointer text-indigo-700">Full-size preview</summary>
                    <div className="mt-2 max-w-[80vw] overflow-auto rounded border bg-slate-50 p-2">
                      <img
                        src={b.imagePath}
                        alt={b.description ?? "Banner"}
                        width={b.width}
                        height={b.height}
                        style={{ maxWidth: "none" }}
                      />
                    </div>
                  </details>
                </>
              ),
            },
            {
              header: "Campaign",
              cell: (b) => (
                <Link to={`/${orgId}/ads/banners/${b.campaignId}`} className="link">
                  {b.campaignName}
                </Link>
              ),
            },
            { header: "Description", cell: (b) => b.description ?? "—" },
            {
              header: "Size",
              nowrap: true,
              cell: (b) => (
                <>
                  {b.width} × {b.height}
                </>
              ),
            },
            {
              header: "Click-through URL",
              long: true,
              cell: (b) => (
                <a href={b.clickUrl} className="link" rel="noreferrer noopener" target="_blank">
                  {b.clickUrl}
                </a>
              ),
            },
            { header: "Active", cell: (b) => (b.active ? "Yes" : "No") },
            { header: "Uploaded", nowrap: true, cell: (b) => <Time ms={b.createdAt} /> },
          ]}
          actions={
            canEdit
              ? (b) => (
                  <Form method="post" className="inline">
                    <input type="hidden" name="id" value={b.id} />
                    <button type="submit" name="intent" value={b.active ? "deactivate" : "activate"} className="btn-secondary text-xs">
                      {b.active ? "Deactivate" : "Activate"}
                    </button>
                  </Form>
                )
              : undefined
          }
        />
        <Pagination page={list.page} pageSize={list.pageSize} total={page.total} />
      </section>
      {canEdit ? (
        <section className="card">
          <h2 className="mb-3 text-lg font-semibold">Upload a banner</h2>
          {campaigns.length === 0 ? (
            <p className="text-sm text-slate-600">
              Create a campaign first:{" "}
              <Link to={`/${orgId}/ads/create`} className="link">
                Create Campaign
              </Link>
              .
            </p>
          ) : (
            <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="max-w-xl">
              <FormErrors errors={form.errors} />
              <SelectField
                label="Campaign"
                selectProps={getSelectProps(fields.campaign_id)}
                options={campaigns.map((c) => ({ value: String(c.id), label: c.name }))}
                errors={fields.campaign_id.errors}
                placeholder="Choose a campaign"
              />
              <div className="mb-4">
                <label htmlFor="banner-file" className="label">
                  Image (PNG, JPEG, WebP or GIF, at most 2 MB)
                </label>
                <input
                  id="banner-file"
                  name="file"
                  type="file"
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  required
                  className="input"
                />
              </div>
              <Field
                label="Description"
                inputProps={getInputProps(fields.description, { type: "text" })}
                errors={fields.description.errors}
              />
              <Field
                label="Click-through URL"
                inputProps={{ ...getInputProps(fields.click_url, { type: "url" }), placeholder: "https://" }}
                errors={fields.click_url.errors}
                hint="Where guests go when they tap the banner (http or https)."
              />
              <label className="mb-4 flex items-center gap-2 text-sm">
                <input type="checkbox" name={fields.active.name} defaultChecked={fields.active.initialValue === "on"} />
                Active (shown to guests while the campaign runs)
              </label>
              <SubmitButton pendingText="Uploading…">Upload banner</SubmitButton>
            </Form>
          )}
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
