import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PagePreview, SplashPageForm } from "~/components/splash/page-ui";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { splashPageSchema } from "~/lib/schemas/splash";
import { previewPath, splashBase } from "~/lib/splash-pages";
import { requirePermission } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { getPage, updatePageDetails } from "~/services/splash/pages.server";
import { pageIdParam, requireSplashViewer } from "../__splash.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Splash page details | Mlango" }];

// The Details tab: the create form's fields; Update needs edit_splash_pages. Beside it, the draft's preview.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  return json({
    orgId: ctx.org.id,
    page: {
      id: page.id,
      name: page.name,
      css_template: page.css_template,
      description: page.description,
      type: page.type,
      updated_at: page.updated_at,
    },
    canEdit: ctx.permissions.has("edit_splash_pages"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const form = await request.formData();
  if ((form.get("intent") ?? "save") !== "save") return json({ message: "Unknown action." }, { status: 400 });
  requirePermission(ctx, "edit_splash_pages");
  const submission = parseForm(form, { schema: splashPageSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  await updatePageDetails(ctx, page.id, submission.value);
  return redirectWithToast(request, splashBase(ctx.org.id, page.id), "Splash page updated.");
}

export default function SplashPageDetails() {
  const { orgId, page, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const message = actionData && "message" in actionData && typeof actionData.message === "string" ? actionData.message : null;
  const lastResult = actionData && !("message" in actionData) ? actionData : null;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_auto]">
      <section className="card">
        <h2 className="mb-4 text-lg font-semibold">Details</h2>
        {message ? <FormErrors errors={[message]} /> : null}
        {canEdit ? null : (
          <p className="mb-4 text-sm text-slate-600">You can view these details; changing them needs the Edit splash pages permission.</p>
        )}
        <SplashPageForm
          key={page.updated_at}
          lastResult={lastResult}
          defaultValue={page}
          readOnly={!canEdit}
          submitLabel="Update"
          pendingText="Updating…"
        />
      </section>
      {page.type !== null ? (
        <section className="card" aria-labelledby="preview-heading">
          <h2 id="preview-heading" className="mb-1 text-lg font-semibold">
            Preview
          </h2>
          <p className="mb-3 text-sm text-slate-600">The draft as guests would see it once published (scripts do not run here).</p>
          <PagePreview src={`${previewPath(orgId, page.id)}?v=${page.updated_at}`} name={page.name} width={400} height={720} scale={0.75} />
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
