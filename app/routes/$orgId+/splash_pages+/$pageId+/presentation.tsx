import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ErrorList, Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { confirmationNeeded, isConfirmationRequest } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { displaySettingSchema } from "~/lib/schemas/splash";
import { splashBase } from "~/lib/splash-pages";
import { requirePermission, type OrgContext } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { getPage } from "~/services/splash/pages.server";
import { accessPointChoices, addDisplaySetting, listDisplaySettings, removeDisplaySetting } from "~/services/splash/rules.server";
import { pageIdParam, requireSplashViewer } from "../__splash.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Presentation | Mlango" }];

// The Presentation tab: the page's display rules and a form to add one (change_splash_pages_presentation).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const canChange = ctx.permissions.has("change_splash_pages_presentation");
  const mayList = canChange || ctx.permissions.has("view_splash_pages") || ctx.permissions.has("edit_splash_pages");
  const rules = mayList ? await listDisplaySettings(ctx, page.id) : [];
  return json({
    pageName: page.name,
    rules: rules.map((r) => ({
      id: r.id,
      access_points: r.access_points.map((ap) => ap.name),
      start_date: r.start_date,
      end_date: r.end_date,
      rule: r.rule,
    })),
    accessPoints: canChange ? await accessPointChoices(ctx) : [],
    canChange,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const form = await request.formData();
  const here = `${splashBase(ctx.org.id, page.id)}/presentation`;
  switch (form.get("intent")) {
    case "add":
      return add(request, ctx, page.id, form, here);
    case "remove":
      return remove(request, ctx, page.id, form, here);
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

// POST splash_pages/display_settings; 422 lists the messages.
async function add(request: Request, ctx: OrgContext, pageId: number, form: FormData, here: string) {
  requirePermission(ctx, "change_splash_pages_presentation");
  const submission = parseForm(form, { schema: displaySettingSchema });
  if (submission.status !== "success") return json({ rule: submission.reply() }, { status: 422 });
  const result = await addDisplaySetting(ctx, pageId, submission.value);
  if (!result.ok) return json({ rule: submission.reply({ fieldErrors: result.errors }) }, { status: 422 });
  return redirectWithToast(request, here, "Display rule saved.");
}

async function remove(request: Request, ctx: OrgContext, pageId: number, form: FormData, here: string) {
  requirePermission(ctx, "change_splash_pages_presentation");
  const settingId = parseId(form.get("setting_id"));
  const ask = confirmationNeeded(form, "remove", "Remove this display rule? Its access points show their network's page again.", {
    setting_id: settingId ?? "",
  });
  if (ask) return json(ask);
  await removeDisplaySetting(ctx, pageId, settingId);
  return redirectWithToast(request, here, { type: "info", message: "Display rule removed." });
}

export default function PresentationTab() {
  const { rules, accessPoints, canChange } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { pathname } = useLocation();
  const ruleResult = actionData && !isConfirmationRequest(actionData) && "rule" in actionData ? actionData.rule : undefined;
  const [form, fields] = useForm({
    id: "display-rule",
    lastResult: ruleResult,
    defaultValue: { factor: "After", factor_count: "1", factor_type: "Day" },
    constraint: getZodConstraint(displaySettingSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: displaySettingSchema }),
  });
  const messages = [...new Set(Object.values(form.allErrors).flat())];
  const groups = groupByNetwork(accessPoints);
  const apErrorId = fields.access_points.errors?.length ? `${fields.access_points.id}-error` : undefined;
  const { key: apKey, ...apProps } = getSelectProps(fields.access_points);
  return (
    <div className="space-y-4">
      <ActionFeedback actionData={ruleResult ? null : actionData} cancelTo={pathname} />
      <section className="card">
        <h2 className="mb-1 text-lg font-semibold">Display rules</h2>
        <p className="mb-4 text-sm text-slate-600">
          Where and when guests see this page instead of their network&apos;s own: at the chosen access points, between the dates, when the
          rule holds for the guest&apos;s device (&ldquo;After 3 Sessions&rdquo;: from the fourth connection on; &ldquo;On 2 Days&rdquo;: on
          the second day it connects).
        </p>
        <DataTable
          rows={rules}
          rowKey={(r) => r.id}
          empty="No display rules yet."
          columns={[
            { header: "Access points", cell: (r) => r.access_points.join(", ") },
            { header: "Start date", nowrap: true, cell: (r) => r.start_date ?? "Any" },
            { header: "End date", nowrap: true, cell: (r) => r.end_date ?? "Any" },
            { header: "Rule", cell: (r) => r.rule },
          ]}
          actions={
            canChange
              ? (r) => (
                  <ConfirmButton
                    intent="remove"
                    message={`Remove the rule “${r.rule}” at ${r.access_points.join(", ")}?`}
                    fields={{ setting_id: r.id }}
                  >
                    Remove
                  </ConfirmButton>
                )
              : undefined
          }
        />
      </section>
      {canChange ? (
        <section className="card">
          <h2 className="mb-4 text-lg font-semibold">Add a display rule</h2>
          <Form method="post" {...getFormProps(form)} className="max-w-2xl">
            {messages.length ? <FormErrors errors={messages} /> : null}
            <fieldset className="mb-4">
              <legend className="label">Rule</legend>
              <div className="flex flex-wrap gap-2">
                <label className="sr-only" htmlFor={fields.factor.id}>
                  Factor
                </label>
                <select {...withoutKey(getSelectProps(fields.factor))} key={fields.factor.key} className="input w-auto">
                  <option value="After">After</option>
                  <option value="On">On</option>
                </select>
                <label className="sr-only" htmlFor={fields.factor_count.id}>
                  Count
                </label>
                <input
                  {...withoutKey(getInputProps(fields.factor_count, { type: "number" }))}
                  key={fields.factor_count.key}
                  min={1}
                  max={1000}
                  className="input w-24"
                />
                <label className="sr-only" htmlFor={fields.factor_type.id}>
                  Factor type
                </label>
                <select {...withoutKey(getSelectProps(fields.factor_type))} key={fields.factor_type.key} className="input w-auto">
                  <option value="Session">Sessions</option>
                  <option value="Day">Days</option>
                </select>
              </div>
            </fieldset>
            <div className="mb-4">
              <label htmlFor={fields.access_points.id} className="label">
                Access points
              </label>
              {accessPoints.length === 0 ? (
                <p className="text-sm text-slate-500">This organization has no access points yet: add them to a network first.</p>
              ) : (
                <select
                  key={apKey}
                  {...apProps}
                  multiple
                  size={Math.min(10, accessPoints.length + groups.length)}
                  className="input"
                  aria-invalid={apErrorId ? true : undefined}
                  aria-describedby={apErrorId ?? `${fields.access_points.id}-hint`}
                >
                  {groups.map((g) => (
                    <optgroup key={g.network} label={g.network}>
                      {g.accessPoints.map((ap) => (
                        <option key={ap.id} value={ap.id}>
                          {ap.name}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
              )}
              <p id={`${fields.access_points.id}-hint`} className="mt-1 text-xs text-slate-500">
                Hold Ctrl (or ⌘) to choose several.
              </p>
              <ErrorList id={apErrorId} errors={fields.access_points.errors} />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Start date"
                inputProps={getInputProps(fields.start_date, { type: "date" })}
                errors={fields.start_date.errors}
                hint="Optional."
              />
              <Field
                label="End date"
                inputProps={getInputProps(fields.end_date, { type: "date" })}
                errors={fields.end_date.errors}
                hint="Optional."
              />
            </div>
            <SubmitButton name="intent" value="add" pendingText="Saving…">
              Save display rule
            </SubmitButton>
          </Form>
        </section>
      ) : null}
    </div>
  );
}

function withoutKey<T extends { key?: unknown }>(props: T): Omit<T, "key"> {
  const { key: _key, ...rest } = props;
  return rest;
}

function groupByNetwork(aps: { id: number; name: string; venue_name: string }[]) {
  const groups: { network: string; accessPoints: { id: number; name: string }[] }[] = [];
  for (const ap of aps) {
    const last = groups[groups.length - 1];
    if (last?.network === ap.venue_name) last.accessPoints.push(ap);
    else groups.push({ network: ap.venue_name, accessPoints: [{ id: ap.id, name: ap.name }] });
  }
  return groups;
}

export const ErrorBoundary = GeneralErrorBoundary;
