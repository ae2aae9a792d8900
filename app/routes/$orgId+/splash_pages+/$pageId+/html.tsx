import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CodeForm } from "~/components/splash/code-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { splashBase } from "~/lib/splash-pages";
import { codeTabData, saveCodeField } from "../__splash.server";

export const meta: MetaFunction = () => [{ title: "HTML | Mlango" }];

// The HTML tab: the page's Page HTML in the code editor (a textarea without JavaScript); saveCode.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await codeTabData(request, params, "html"));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return saveCodeField(request, params, "html", (orgId, pageId) => `${splashBase(orgId, pageId)}/html`);
}

export default function SplashHtmlTab() {
  const { page, canEdit } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">HTML</h2>
      <p className="mb-4 text-sm text-slate-600">
        Put <code>{"{{ connect_form }}"}</code> where the guest&apos;s connect form goes (otherwise it comes after the page) and{" "}
        <code>{"{{ config.name }}"}</code> for an option you fill in on the Options tab. Saved when the editor loses focus, or with Save.
      </p>
      {page.type === 1 ? (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This page is built with the drag and drop builder: saving its HTML here makes the builder start again from this HTML.
        </p>
      ) : null}
      <CodeForm field="html" language="html" label="Page HTML" value={page.html} canEdit={canEdit} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
