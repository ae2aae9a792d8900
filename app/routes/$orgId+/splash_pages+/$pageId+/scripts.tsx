import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CodeForm } from "~/components/splash/code-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { splashBase } from "~/lib/splash-pages";
import { codeTabData, saveCodeField } from "../__splash.server";

export const meta: MetaFunction = () => [{ title: "Scripts | Mlango" }];

// The Scripts tab: the page's Page scripts in the code editor (a textarea without JavaScript); saveCode.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await codeTabData(request, params, "custom_scripts"));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return saveCodeField(request, params, "custom_scripts", (orgId, pageId) => `${splashBase(orgId, pageId)}/scripts`);
}

export default function SplashScriptsTab() {
  const { page, canEdit } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">Scripts</h2>
      <p className="mb-4 text-sm text-slate-600">
        JavaScript that runs on the guest&apos;s page only, sandboxed: it cannot reach Mlango or other sites. Scripts do not run in
        previews.
      </p>
      <CodeForm field="custom_scripts" language="javascript" label="Page scripts" value={page.custom_scripts} canEdit={canEdit} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
