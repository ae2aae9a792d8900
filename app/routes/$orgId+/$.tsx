import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { findMenuItem, mayOpen } from "~/lib/menu";
import { refusalMessage } from "~/lib/permissions";
import { forbidden, notFound, requireOrg } from "~/services/guard.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.label} · Mlango` : "Mlango" }];

// Any path under an organisation that no route implements: a menu entry whose page is not
// built yet gets a plain notice (with the entry's permission check); anything else is a 404.
// Real routes take precedence over this splat as they are added.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params);
  const match = findMenuItem(params["*"] ?? "");
  if (!match || match.item.path === "") notFound();
  if (!mayOpen(match, ctx.permissions)) {
    const failed = match.checks.find((check) => !check.some((p) => ctx.permissions.has(p)));
    forbidden(refusalMessage(failed![0]));
  }
  return json({ org: ctx.org, label: match.item.label, section: match.sections.join(" › ") || null });
}

export default function NotAvailableYet() {
  const { org, label, section } = useLoaderData<typeof loader>();
  return (
    <div className="card max-w-xl">
      {section ? <p className="text-sm font-medium uppercase tracking-wide text-slate-500">{section}</p> : null}
      <h1 className="mt-1 text-xl font-semibold">{label}</h1>
      <p className="mt-2 text-slate-600">{label} is not available yet.</p>
      <Link to={`/${org.id}`} className="link mt-4 inline-block">
        Back to the dashboard
      </Link>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
