import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { NotSetUpPlaceholder, PagePreview, StatusBadge } from "~/components/splash/page-ui";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ListControls, Pagination } from "~/components/ui/pagination";
import { confirmationNeeded } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { parseListParams } from "~/lib/pagination";
import { deletedMessage, deleteQuestion, previewPath, publishQuestion, SPLASH_PAGE_SIZES, splashStatus } from "~/lib/splash-pages";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { deletePage, getPage, listPages, pageUsage, publishPage } from "~/services/splash/pages.server";
import { requireSplashViewer } from "./__splash.server";

export const meta: MetaFunction = () => [{ title: "Splash Pages | Mlango" }];

// splash_pages?organization_id: the grid of cards (docs/guide/splash-pages.md#splash-pages-list).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const list = parseListParams(new URL(request.url).searchParams, SPLASH_PAGE_SIZES, SPLASH_PAGE_SIZES[0]);
  const { rows, total } = await listPages(ctx, list);
  const canDelete = ctx.permissions.has("delete_splash_pages");
  const pages = await Promise.all(
    rows.map(async (p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      type: p.type,
      status: splashStatus(p),
      has_unpublished_changes: p.has_unpublished_changes,
      page_url: p.page_url,
      updated_at: p.updated_at,
      deleteQuestion: canDelete ? deleteQuestion(p.name, await pageUsage(ctx, p.id)) : null,
      publishQuestion: publishQuestion(p.name),
    })),
  );
  return json({
    orgId: ctx.org.id,
    pages,
    total,
    list,
    can: {
      create: ctx.permissions.has("create_splash_pages"),
      edit: ctx.permissions.has("edit_splash_pages"),
      view: ctx.permissions.has("view_splash_pages"),
      publish: ctx.permissions.has("publish_splash_pages"),
      delete: canDelete,
    },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "publish":
      return publish(request, ctx, form);
    case "delete":
      return remove(request, ctx, form);
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

/** Back to the list as it was (page, search), without Remix's `index` marker. */
function listUrl(request: Request, ctx: OrgContext) {
  const query = new URLSearchParams(new URL(request.url).search);
  query.delete("index");
  return `/${ctx.org.id}/splash_pages${query.size ? `?${query}` : ""}`;
}

async function publish(request: Request, ctx: OrgContext, form: FormData) {
  requirePermission(ctx, "publish_splash_pages");
  const page = await getPage(ctx, parseId(form.get("id")));
  const ask = confirmationNeeded(form, "publish", publishQuestion(page.name), { id: page.id });
  if (ask) return json(ask);
  const result = await publishPage(ctx, page.id);
  if (!result.ok) return json({ message: result.message }, { status: 422 });
  return redirectWithToast(request, listUrl(request, ctx), result.message);
}

async function remove(request: Request, ctx: OrgContext, form: FormData) {
  requirePermission(ctx, "delete_splash_pages");
  const page = await getPage(ctx, parseId(form.get("id")));
  const ask = confirmationNeeded(form, "delete", deleteQuestion(page.name, await pageUsage(ctx, page.id)), { id: page.id });
  if (ask) return json(ask);
  const deleted = await deletePage(ctx, page.id);
  return redirectWithToast(request, `/${ctx.org.id}/splash_pages`, { type: "info", message: deletedMessage(deleted) });
}

export default function SplashPages() {
  const { orgId, pages, total, list, can } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Splash Pages</h1>
        <div className="flex flex-wrap gap-2">
          <Link to={`/${orgId}/splash_pages/assets`} className="btn-secondary">
            Images
          </Link>
          {can.create ? (
            <Link to={`/${orgId}/splash_pages/create`} className="btn-primary">
              New page
            </Link>
          ) : null}
        </div>
      </div>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/splash_pages`} />
      <ListControls pageSize={list.pageSize} search={list.search} pageSizes={SPLASH_PAGE_SIZES} searchLabel="Search splash pages" />
      {pages.length === 0 ? (
        <p className="py-8 text-center text-sm text-slate-500">
          {list.search
            ? "No splash page matches the search."
            : "No splash pages yet. A splash page wraps the form guests use to connect to your Wi-Fi."}
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {pages.map((p) => {
            const details = `/${orgId}/splash_pages/${p.id}`;
            return (
              <li key={p.id} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
                {p.type === null ? (
                  <NotSetUpPlaceholder />
                ) : (
                  <PagePreview src={`${previewPath(orgId, p.id)}?v=${p.updated_at}`} name={p.name} />
                )}
                <div className="flex-1">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h2 className="font-semibold">{p.name}</h2>
                    <StatusBadge status={p.status} />
                  </div>
                  {p.description ? <p className="mt-1 text-sm text-slate-600">{p.description}</p> : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  {p.type === null ? (
                    can.edit ? (
                      <Link to={details} className="btn-primary" aria-label={`Set up ${p.name}`}>
                        Set up
                      </Link>
                    ) : null
                  ) : (
                    <>
                      <Link to={details} className="btn-secondary" aria-label={`Details of ${p.name}`}>
                        Details
                      </Link>
                      {p.has_unpublished_changes ? (
                        can.publish ? (
                          <ConfirmButton intent="publish" message={p.publishQuestion} fields={{ id: p.id }} className="btn-primary">
                            Publish
                          </ConfirmButton>
                        ) : null
                      ) : can.view && p.page_url ? (
                        <a href={p.page_url} target="_blank" rel="noopener noreferrer" className="btn-secondary">
                          View page
                        </a>
                      ) : null}
                    </>
                  )}
                  {can.delete && p.deleteQuestion ? (
                    <ConfirmButton intent="delete" message={p.deleteQuestion} fields={{ id: p.id }}>
                      Delete
                    </ConfirmButton>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
