import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { SplashPageForm } from "~/components/splash/page-ui";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { splashPageSchema } from "~/lib/schemas/splash";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { createPage } from "~/services/splash/pages.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "New splash page | Mlango" }];

// The create form (docs/guide/splash-pages.md#create-splash-page): Page name, Styling template, Description; the
// Create button needs create_splash_pages.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_splash_pages");
  return json({ orgId: ctx.org.id });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "create_splash_pages");
  const submission = parseForm(await request.formData(), { schema: splashPageSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const page = await createPage(ctx, submission.value);
  return redirectWithToast(
    request,
    `/${ctx.org.id}/splash_pages/${page.id}`,
    `Splash page ${submission.value.name} created. Choose how to build it.`,
  );
}

export default function CreateSplashPage() {
  const { orgId } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <section className="card">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link to={`/${orgId}/splash_pages`} className="link">
          Splash Pages
        </Link>{" "}
        › <span>New page</span>
      </nav>
      <h1 className="mb-4 text-xl font-semibold">New splash page</h1>
      <SplashPageForm lastResult={lastResult} submitLabel="Create" pendingText="Creating…" />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
