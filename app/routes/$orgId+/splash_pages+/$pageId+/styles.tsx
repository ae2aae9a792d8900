import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CodeForm } from "~/components/splash/code-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { splashBase } from "~/lib/splash-pages";
import { codeTabData, saveCodeField } from "../__splash.server";

export const meta: MetaFunction = () => [{ title: "Styles | Mlango" }];

// The Styles tab: the page's Page CSS in the code editor (a textarea without JavaScript); saveCode.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await codeTabData(request, params, "css"));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return saveCodeField(request, params, "css", (orgId, pageId) => `${splashBase(orgId, pageId)}/styles`);
}

export default function SplashStylesTab() {
  const { page, canEdit } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">Styles</h2>
      <p className="mb-4 text-sm text-slate-600">CSS added after the styling template. Saved when the editor loses focus, or with Save.</p>
      <CodeForm field="css" language="css" label="Page CSS" value={page.css} canEdit={canEdit} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
