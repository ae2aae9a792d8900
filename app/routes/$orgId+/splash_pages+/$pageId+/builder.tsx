import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { ClientOnly } from "remix-utils/client-only";
import { builderStylesheet } from "~/components/splash/builder-stylesheet";
import { CodeForm, type CodeSaveResult } from "~/components/splash/code-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { SPLASH_MESSAGES, splashBuilderSchema } from "~/lib/schemas/splash";
import { splashBase } from "~/lib/splash-pages";
import { cleanHtml } from "~/services/editor-content.server";
import { listAssets } from "~/services/splash/assets.server";
import { getPage, saveBuilder } from "~/services/splash/pages.server";
import { styleHref } from "~/services/splash/styles.server";
import { firstMessage, pageIdParam, requireSplashViewer, saveCodeField } from "../__splash.server";
import { parseForm } from "~/services/forms.server";

// GrapesJS and its component load in the browser only, and only on this tab.
const SplashBuilder = lazy(() => import("~/components/splash/builder.client"));

export const meta: MetaFunction = () => [{ title: "Builder | Mlango" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: builderStylesheet }];

// The Builder tab (type 1): GrapesJS with the page's project (or its HTML and CSS), the styling
// template inside the canvas, a block per option, the organisation's images and their upload. The
// builder imports the page's HTML when there is no project: it gets it cleaned like a project (the
// HTML itself, the guests' page, keeps the operator's scripts; they only run in the guests' sandbox).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const base = splashBase(ctx.org.id, page.id);
  const bootstrap = styleHref(page.css_template);
  const mayListAssets = ctx.permissions.has("view_splash_pages") || ctx.permissions.has("edit_splash_pages");
  const assets = mayListAssets ? await listAssets(ctx) : [];
  return json({
    page: {
      id: page.id,
      name: page.name,
      type: page.type,
      project_data: page.project_data,
      html: page.html,
      builder_html: page.project_data === null ? cleanHtml(page.html) : "",
      css: page.css,
      updated_at: page.updated_at,
    },
    // Tailwind has no single file: the canvas gets the CSS compiled from the saved HTML. Every page's
    // canvas also gets its options' values where its styles use them (the brand colour, canvas.css).
    canvasStyles: [...(bootstrap ? [bootstrap] : []), `${base}/canvas.css?v=${page.updated_at}`],
    configs: page.configs.map((c) => ({ name: c.name, title: c.title })),
    assets: assets.map((a) => ({ name: a.name, url: a.path })),
    uploadUrl: `/${ctx.org.id}/splash_pages/assets/upload`,
    canEdit: ctx.permissions.has("edit_splash_pages"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await request.formData();
  // The no-JavaScript form of this tab saves the HTML like the HTML tab.
  if (form.get("intent") !== "builder")
    return saveCodeField(request, params, "html", (orgId, pageId) => `${splashBase(orgId, pageId)}/builder`, form);
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  if (!ctx.permissions.has("edit_splash_pages")) return json({ ok: false, message: SPLASH_MESSAGES.notAllowedToEdit }, { status: 403 });
  const submission = parseForm(form, { schema: splashBuilderSchema });
  if (submission.status !== "success") return json({ ok: false, message: firstMessage(submission.error) }, { status: 422 });
  await saveBuilder(ctx, page.id, submission.value);
  return json({ ok: true, message: "Page saved. Publish it when guests should see it." });
}

export default function BuilderTab() {
  const { page, canvasStyles, configs, assets, uploadUrl, canEdit } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<CodeSaveResult>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const noScript = (
    <div className="space-y-3">
      <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        The builder needs JavaScript. You can edit the page&apos;s HTML below instead.
      </p>
      <CodeForm field="html" language="html" label="Page HTML" value={page.html} canEdit={canEdit} />
    </div>
  );
  return (
    <section className="card space-y-3">
      <h2 className="text-lg font-semibold">Builder</h2>
      {canEdit ? null : (
        <p className="text-sm text-slate-600">You can look at the page here; saving it needs the Edit splash pages permission.</p>
      )}
      {result && !result.ok ? <FormErrors errors={[result.message]} /> : null}
      <p role="status" className="text-sm text-green-700">
        {result?.ok ? result.message : ""}
      </p>
      <ClientOnly fallback={noScript}>
        {() => (
          <Suspense fallback={<p className="text-sm text-slate-600">Loading the builder…</p>}>
            <SplashBuilder
              key={page.id}
              projectData={page.project_data}
              html={page.builder_html}
              css={page.css}
              canvasStyles={canvasStyles}
              configs={configs}
              assets={assets}
              uploadUrl={uploadUrl}
              saving={fetcher.state !== "idle"}
              onSave={(data) =>
                fetcher.submit(
                  { intent: "builder", project_data: data.projectData, html: data.html, css: data.css },
                  { method: "post", encType: "multipart/form-data" },
                )
              }
            />
          </Suspense>
        )}
      </ClientOnly>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
