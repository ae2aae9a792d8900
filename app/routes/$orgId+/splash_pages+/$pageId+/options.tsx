import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { parseId } from "~/lib/ids";
import { SPLASH_MESSAGES, splashConfigSchema } from "~/lib/schemas/splash";
import { splashBase } from "~/lib/splash-pages";
import { notFound } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { getPage, updateConfig } from "~/services/splash/pages.server";
import { firstMessage, pageIdParam, requireSplashViewer } from "../__splash.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Page options | Mlango" }];

// The Options tab: each config's title, name, initial value and editable current value (custom_value).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  return json({
    configs: page.configs.map((c) => ({
      id: c.id,
      name: c.name,
      title: c.title,
      default_value: c.default_value,
      custom_value: c.custom_value,
    })),
    canEdit: ctx.permissions.has("edit_splash_pages"),
  });
}

// PUT splash_pages/configs/{id}: one row's form. Refused without edit_splash_pages with the spec's
// sentence, shown as an alert; an option of another page is a 404.
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const form = await request.formData();
  if (form.get("intent") !== "config") return json({ ok: false, message: "Unknown action.", configId: null }, { status: 400 });
  const configId = parseId(form.get("config_id"));
  const config = page.configs.find((c) => c.id === configId) ?? notFound("Page option not found.");
  if (!ctx.permissions.has("edit_splash_pages"))
    return json({ ok: false, message: SPLASH_MESSAGES.notAllowedToEditConfigs, configId: config.id }, { status: 403 });
  const submission = parseForm(form, { schema: splashConfigSchema });
  if (submission.status !== "success")
    return json({ ok: false, message: firstMessage(submission.error), configId: config.id }, { status: 422 });
  await updateConfig(ctx, config.id, submission.value.custom_value);
  return redirectWithToast(request, `${splashBase(ctx.org.id, page.id)}/options`, `Option ${config.title} saved.`);
}

export default function OptionsTab() {
  const { configs, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">Options</h2>
      <p className="mb-4 text-sm text-slate-600">
        Values the page shows where its HTML says <code>{"{{ config.name }}"}</code>. Leave a current value empty to use the initial value.
        Guests see changes once the page is published.
      </p>
      {actionData?.message ? <FormErrors errors={[actionData.message]} /> : null}
      <DataTable
        rows={configs}
        // The key holds the saved value so each input shows it again after a save.
        rowKey={(c) => `${c.id}-${c.custom_value ?? ""}`}
        empty="This page has no options."
        columns={[
          { header: "Title", cell: (c) => c.title },
          { header: "Name", cell: (c) => <code>{c.name}</code> },
          { header: "Initial value", long: true, cell: (c) => c.default_value },
          {
            header: "Current value",
            cell: (c) => (
              <Form method="post" className="flex gap-2">
                <input type="hidden" name="config_id" value={c.id} />
                <input
                  type="text"
                  name="custom_value"
                  defaultValue={c.custom_value ?? ""}
                  placeholder={c.default_value}
                  readOnly={!canEdit}
                  aria-label={`Current value of ${c.title}`}
                  className="input min-w-0 md:min-w-[14rem]"
                />
                <button type="submit" name="intent" value="config" className="btn-secondary" aria-label={`Save ${c.title}`}>
                  Save
                </button>
              </Form>
            ),
          },
        ]}
      />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
