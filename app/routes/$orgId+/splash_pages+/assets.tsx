import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { SubmitButton } from "~/components/ui/field";
import { confirmationNeeded } from "~/lib/confirm";
import { formatBytes } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { ASSET_MESSAGES, deleteAsset, listAssets, readAssetUpload, saveAsset } from "~/services/splash/assets.server";

export const meta: MetaFunction = () => [{ title: "Images · Splash Pages | Mlango" }];

// Images for splash pages (docs/guide/splash-pages.md#images): upload (works without
// JavaScript), list with the address to use in a page, delete. Uploading and deleting need
// edit_splash_pages.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_splash_pages", "edit_splash_pages");
  const assets = await listAssets(ctx);
  return json({
    orgId: ctx.org.id,
    assets: assets.map((a) => ({ id: a.id, name: a.name, path: a.path, size: a.size })),
    canEdit: ctx.permissions.has("edit_splash_pages"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_splash_pages", "edit_splash_pages");
  const here = `/${ctx.org.id}/splash_pages/assets`;
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) return upload(request, ctx, here);
  const form = await request.formData();
  if (form.get("intent") !== "delete") return json({ message: "Unknown action." }, { status: 400 });
  requirePermission(ctx, "edit_splash_pages");
  const assetId = parseId(form.get("asset_id"));
  const asset = (await listAssets(ctx)).find((a) => a.id === assetId);
  const ask = confirmationNeeded(
    form,
    "delete",
    `Delete the image ${asset?.name ?? ""}? Pages that show it show a broken image from then on.`,
    { asset_id: assetId ?? "" },
  );
  if (ask) return json(ask);
  await deleteAsset(ctx, assetId);
  return redirectWithToast(request, here, { type: "info", message: ASSET_MESSAGES.deleted });
}

// The permission is settled before the file is read.
async function upload(request: Request, ctx: OrgContext, here: string) {
  requirePermission(ctx, "edit_splash_pages");
  const uploaded = await readAssetUpload(request);
  const saved = await saveAsset(ctx, uploaded, uploaded.ok ? (uploaded.fileName ?? null) : null);
  if (!saved.ok) return json({ message: saved.message }, { status: saved.status });
  return redirectWithToast(request, here, `Image ${saved.asset.name} uploaded. Use ${saved.asset.path} in your pages.`);
}

export default function SplashImages() {
  const { orgId, assets, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/splash_pages`} className="link">
          Splash Pages
        </Link>{" "}
        › <span>Images</span>
      </nav>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/splash_pages/assets`} />
      {canEdit ? (
        <section className="card">
          <h1 className="mb-1 text-xl font-semibold">Images</h1>
          <p className="mb-4 text-sm text-slate-600">PNG, JPEG, WebP or GIF, at most 5 MB each. SVG is not accepted.</p>
          <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="asset-file" className="label">
                Image file
              </label>
              <input
                id="asset-file"
                type="file"
                name="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                required
                className="text-sm"
              />
            </div>
            <SubmitButton pendingText="Uploading…">Upload</SubmitButton>
          </Form>
        </section>
      ) : (
        <h1 className="text-xl font-semibold">Images</h1>
      )}
      <section className="card">
        <h2 className="mb-4 text-lg font-semibold">Uploaded images</h2>
        <DataTable
          rows={assets}
          rowKey={(a) => a.id}
          empty="No images yet."
          columns={[
            {
              header: "Image",
              cell: (a) => <img src={a.path} alt="" loading="lazy" className="h-12 w-16 rounded border border-slate-200 object-contain" />,
            },
            { header: "Name", long: true, cell: (a) => a.name },
            {
              header: "Address to use in a page",
              cell: (a) => (
                <input
                  type="text"
                  readOnly
                  value={a.path}
                  aria-label={`Address of ${a.name}`}
                  className="input font-mono text-xs"
                  onFocus={(e) => e.currentTarget.select()}
                />
              ),
            },
            { header: "Size", numeric: true, cell: (a) => formatBytes(a.size) },
          ]}
          actions={
            canEdit
              ? (a) => (
                  <ConfirmButton
                    intent="delete"
                    message={`Delete the image ${a.name}? Pages that show it show a broken image from then on.`}
                    fields={{ asset_id: a.id }}
                  >
                    Delete
                  </ConfirmButton>
                )
              : undefined
          }
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
