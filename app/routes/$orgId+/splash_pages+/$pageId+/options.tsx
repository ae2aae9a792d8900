import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { parseId } from "~/lib/ids";
import { SPLASH_MESSAGES, splashConfigSchema } from "~/lib/schemas/splash";
import { splashBase } from "~/lib/splash-pages";
import { notFound } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { getPage, updateConfig } from "~/services/splash/pages.server";
import { firstMessage, pageIdParam, requireSplashViewer } from "../__splash.server";

export const meta: MetaFunction = () => [{ title: "Page options | Mlango" }];

// The Options tab: each config's title, name, initial value and editable current value (custom_value).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  return json({
    configs: page.configs.map((c) => ({ id: c.id, name: c.name, title: c.title, default_value: c.default_value, custom_value: c.custom_value })),
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
  if (!ctx.permissions.has("edit_splash_pages")) return json({ ok: false, message: SPLASH_MESSAGES.notAllowedToEditConfigs, configId: config.id }, { status: 403 });
  const submission = parseWithZod(form, { schema: splashConfigSchema });
  if (submission.status !== "success") return json({ ok: false, message: firstMessage(submission.error), configId: config.id }, { status: 422 });
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
        Values the page shows where its HTML says <code>{"{{ config.name }}"}</code>. Leave a current value empty to use the initial value. Guests see changes once the
        page is published.
      </p>
      {actionData?.message ? <FormErrors errors={[actionData.message]} /> : null}
      {configs.length === 0 ? (
        <p className="text-sm text-slate-500">This page has no options.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table">
            <thead>
              <tr>
                <th>Title</th>
                <th>Name</th>
                <th>Initial value</th>
                <th>Current value</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {configs.map((c) => (
                <tr key={`${c.id}-${c.custom_value ?? ""}`}>
                  <td>{c.title}</td>
                  <td>
                    <code>{c.name}</code>
                  </td>
                  <td className="max-w-xs break-words">{c.default_value}</td>
                  <td>
                    <Form method="post" className="flex gap-2">
                      <input type="hidden" name="config_id" value={c.id} />
                      <input
                        type="text"
                        name="custom_value"
                        defaultValue={c.custom_value ?? ""}
                        placeholder={c.default_value}
                        readOnly={!canEdit}
                        aria-label={`Current value of ${c.title}`}
                        className="input min-w-[14rem]"
                      />
                      <button type="submit" name="intent" value="config" className="btn-secondary" aria-label={`Save ${c.title}`}>
                        Save
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
