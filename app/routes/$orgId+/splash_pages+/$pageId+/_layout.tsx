import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, Outlet, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { SplashTabs, splashTabs, StatusBadge } from "~/components/splash/page-ui";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { SubmitButton } from "~/components/ui/field";
import { confirmationNeeded } from "~/lib/confirm";
import { splashTypeSchema } from "~/lib/schemas/splash";
import { deletedMessage, deleteQuestion, publishQuestion, safeBack, splashBase, splashStatus } from "~/lib/splash-pages";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { copyTemplate, deletePage, getPage, listTemplates, pageUsage, publishPage, setPageType } from "~/services/splash/pages.server";
import { pageIdParam, requireSplashViewer } from "../__splash.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.page.name} · Splash Pages · Mlango` : "Mlango" }];

// The splash page's frame (docs/guide/splash-pages.md#splash-page-details): header with
// Publish, View page and Delete; then the set-up screen (no type yet) or the tabs. Each tab's
// route runs its own guard.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const canDelete = ctx.permissions.has("delete_splash_pages");
  return json({
    orgId: ctx.org.id,
    page: {
      id: page.id,
      name: page.name,
      type: page.type,
      status: splashStatus(page),
      published: page.published,
      has_unpublished_changes: page.has_unpublished_changes,
      page_url: page.page_url,
      hasConfigs: page.configs.length > 0,
    },
    deleteQuestion: canDelete ? deleteQuestion(page.name, await pageUsage(ctx, page.id)) : null,
    publishQuestion: publishQuestion(page.name),
    templates:
      page.type === null
        ? listTemplates().map((t) => ({ id: t.id, name: t.name, description: t.description, css_template: t.css_template }))
        : [],
    can: {
      edit: ctx.permissions.has("edit_splash_pages"),
      view: ctx.permissions.has("view_splash_pages"),
      publish: ctx.permissions.has("publish_splash_pages"),
      delete: canDelete,
    },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const pageId = pageIdParam(params);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "publish":
      return publish(request, ctx, pageId, form);
    case "delete":
      return remove(request, ctx, pageId, form);
    case "setup":
      return setUp(request, ctx, pageId, form);
    case "clone":
      return clone(request, ctx, pageId, form);
    default:
      await getPage(ctx, pageId);
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

// splash_pages/publish/{id}, after a confirmation; back to the tab it was asked from.
async function publish(request: Request, ctx: OrgContext, pageId: number | null, form: FormData) {
  const page = await getPage(ctx, pageId);
  requirePermission(ctx, "publish_splash_pages");
  const base = splashBase(ctx.org.id, page.id);
  const back = safeBack(form.get("back"), base);
  const ask = confirmationNeeded(form, "publish", publishQuestion(page.name), { back });
  if (ask) return json(ask);
  const result = await publishPage(ctx, page.id);
  if (!result.ok) return json({ message: result.message }, { status: 422 });
  return redirectWithToast(request, back, result.message);
}

async function remove(request: Request, ctx: OrgContext, pageId: number | null, form: FormData) {
  const page = await getPage(ctx, pageId);
  requirePermission(ctx, "delete_splash_pages");
  const ask = confirmationNeeded(form, "delete", deleteQuestion(page.name, await pageUsage(ctx, page.id)));
  if (ask) return json(ask);
  const deleted = await deletePage(ctx, page.id);
  return redirectWithToast(request, `/${ctx.org.id}/splash_pages`, { type: "info", message: deletedMessage(deleted) });
}

// The set-up screen: drag and drop builder (type 1) or code editor (type 2).
async function setUp(request: Request, ctx: OrgContext, pageId: number | null, form: FormData) {
  const page = await getPage(ctx, pageId);
  requirePermission(ctx, "edit_splash_pages");
  const submission = parseForm(form, { schema: splashTypeSchema });
  if (submission.status !== "success")
    return json({ message: submission.error?.type?.[0] ?? "Choose how to build the page." }, { status: 400 });
  const type = submission.value.type as 1 | 2;
  await setPageType(ctx, page.id, type);
  const base = splashBase(ctx.org.id, page.id);
  return type === 1
    ? redirectWithToast(request, `${base}/builder`, "The page uses the drag and drop builder.")
    : redirectWithToast(request, `${base}/html`, "The page uses the code editor.");
}

// splash_pages/copy/{id}?template=: the template's page becomes the draft (builder).
async function clone(request: Request, ctx: OrgContext, pageId: number | null, form: FormData) {
  const page = await getPage(ctx, pageId);
  requirePermission(ctx, "edit_splash_pages");
  const templateId = String(form.get("template") ?? "");
  await copyTemplate(ctx, page.id, templateId);
  const name = listTemplates().find((t) => t.id === templateId)?.name ?? templateId;
  return redirectWithToast(
    request,
    `${splashBase(ctx.org.id, page.id)}/builder`,
    `Template ${name} copied into the page. Fill in its options and publish it.`,
  );
}

export default function SplashPageLayout() {
  const { orgId, page, deleteQuestion, publishQuestion, templates, can } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { pathname } = useLocation();
  const base = splashBase(orgId, page.id);
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/splash_pages`} className="link">
          Splash Pages
        </Link>{" "}
        › <span>{page.name}</span>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{page.name}</h1>
          <StatusBadge status={page.status} />
        </div>
        <div className="flex flex-wrap gap-2">
          {can.publish && page.type !== null && page.has_unpublished_changes ? (
            <ConfirmButton intent="publish" message={publishQuestion} fields={{ back: pathname }} action={base} className="btn-primary">
              Publish
            </ConfirmButton>
          ) : null}
          {can.view && page.published && page.page_url ? (
            <a href={page.page_url} target="_blank" rel="noopener noreferrer" className="btn-secondary">
              View page
            </a>
          ) : null}
          {can.delete && deleteQuestion ? (
            <ConfirmButton intent="delete" message={deleteQuestion} action={base}>
              Delete
            </ConfirmButton>
          ) : null}
        </div>
      </header>
      <ActionFeedback actionData={actionData} cancelTo={pathname} />
      {page.type === null ? (
        <SetUp base={base} templates={templates} canEdit={can.edit} />
      ) : (
        <>
          <SplashTabs base={base} tabs={splashTabs(page.type, page.hasConfigs)} />
          <Outlet />
        </>
      )}
    </div>
  );
}

function SetUp({
  base,
  templates,
  canEdit,
}: {
  base: string;
  templates: { id: string; name: string; description: string; css_template: string }[];
  canEdit: boolean;
}) {
  if (!canEdit) {
    return (
      <section className="card">
        <h2 className="text-lg font-semibold">Not set up</h2>
        <p className="mt-1 text-sm text-slate-600">
          This page has not been set up yet. Setting it up needs the Edit splash pages permission.
        </p>
      </section>
    );
  }
  return (
    <section className="card space-y-6" aria-labelledby="setup-heading">
      <div>
        <h2 id="setup-heading" className="text-lg font-semibold">
          Set up the page
        </h2>
        <p className="mt-1 text-sm text-slate-600">Choose how to build it. Guests see nothing of it until you publish it.</p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Form method="post" action={base} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
          <input type="hidden" name="type" value="1" />
          <h3 className="font-semibold">Drag and drop builder</h3>
          <p className="flex-1 text-sm text-slate-600">
            Arrange headings, text, images, the connect form and the page's options on a canvas. Needs JavaScript.
          </p>
          <div>
            <SubmitButton name="intent" value="setup" pendingText="Setting up…">
              Drag and drop builder
            </SubmitButton>
          </div>
        </Form>
        <Form method="post" action={base} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
          <input type="hidden" name="type" value="2" />
          <h3 className="font-semibold">Code editor</h3>
          <p className="flex-1 text-sm text-slate-600">
            Write the page's HTML, CSS and scripts. Put <code>{"{{ connect_form }}"}</code> where the connect form goes and{" "}
            <code>{"{{ config.welcome_text }}"}</code> for an option.
          </p>
          <div>
            <SubmitButton name="intent" value="setup" pendingText="Setting up…">
              Code editor
            </SubmitButton>
          </div>
        </Form>
      </div>
      <div>
        <h3 className="font-semibold">Clone a template</h3>
        <p className="mt-1 text-sm text-slate-600">Start from a ready-made page and change it in the builder.</p>
        <ul className="mt-3 grid gap-4 md:grid-cols-3">
          {templates.map((t) => (
            <li key={t.id} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-4">
              <h4 className="font-medium">{t.name}</h4>
              <p className="flex-1 text-sm text-slate-600">{t.description}</p>
              <p className="text-xs text-slate-500">Styling: {t.css_template}</p>
              <Form method="post" action={base}>
                <input type="hidden" name="template" value={t.id} />
                <button type="submit" name="intent" value="clone" className="btn-secondary" aria-label={`Use this template: ${t.name}`}>
                  Use this template
                </button>
              </Form>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
