import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CountCards } from "~/components/shell/count-cards";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { requireOrg } from "~/services/guard.server";
import { organizationCounts } from "~/services/organizations.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Dashboard · ${data.org.name} · Mlango` : "Mlango" }];

// The organisation's home. For now its counts; the analytics dashboard comes later.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params);
  return json({ org: ctx.org, counts: await organizationCounts(ctx.org.id) });
}

export default function OrganizationHome() {
  const { org, counts } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="text-2xl font-semibold">Dashboard</h1>
      <p className="mt-1 text-slate-600">{org.name}</p>
      <CountCards counts={counts} className="mt-6" />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
