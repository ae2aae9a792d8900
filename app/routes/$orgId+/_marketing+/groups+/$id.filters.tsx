// A group's Filters (docs/guide/marketing.md#filters): by date (YES/NO) with
// a range that cannot pass today, minimum connections and days, venues, access points, and profile
// rules joined by AND/OR (AND binds tighter). Rules are added and removed with conform's list
// intents: the buttons post the form, so the editor works without JavaScript.
import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ButtonHTMLAttributes } from "react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ErrorList, Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { FILTER_EQUATION_LABELS, FILTER_EQUATIONS, FILTER_FIELD_LABELS, FILTER_FIELDS, EMPTY_FILTERS } from "~/lib/schemas/group-filters";
import { filtersFormValues, GROUP_MESSAGES, groupFiltersFormSchema, NEW_RULE } from "~/lib/schemas/groups";
import { requireOrg, requirePermission, type OrgContext } from "~/services/guard.server";
import { filterChoices, getGroup, updateGroupFilters } from "~/services/marketing/groups.server";
import { redirectWithToast } from "~/services/session.server";
import { groupBase, groupIdParam } from "./__groups.server";
import { todayIso } from "~/lib/date-range";
import { parseForm } from "~/services/forms.server";

/** Today in the organization's zone: filter dates are its days. */
const todayOf = (ctx: OrgContext) => todayIso(Date.now(), ctx.org.clock.offsetMs);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const group = await getGroup(ctx, groupIdParam(params));
  return json({
    orgId: ctx.org.id,
    groupId: group.id,
    values: filtersFormValues(group.filters ?? EMPTY_FILTERS),
    choices: await filterChoices(ctx),
    today: todayOf(ctx),
    canEdit: ctx.permissions.has("create_groups"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_groups");
  const group = await getGroup(ctx, groupIdParam(params));
  requirePermission(ctx, "create_groups");
  const submission = parseForm(await request.formData(), { schema: groupFiltersFormSchema(todayOf(ctx)) });
  // Add rule / Remove (list intents) come back as the changed form.
  if (submission.status === undefined) return json(submission.reply());
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const errors = await updateGroupFilters(ctx, group.id, submission.value);
  if (errors) return json(submission.reply({ fieldErrors: errors }), { status: 400 });
  return redirectWithToast(request, groupBase(ctx.org.id, group.id), GROUP_MESSAGES.filtersSaved);
}

export default function GroupFilters() {
  const { values, choices, today, canEdit } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const schema = groupFiltersFormSchema(today);
  const [form, fields] = useForm({
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const range = fields.dateRange.getFieldset();
  const rules = fields.profile.getFieldList();
  const venueNames = new Map(choices.venues.map((v) => [v.id, v.name]));
  return (
    <section className="card">
      <h2 className="mb-1 text-lg font-semibold">Filters</h2>
      <p className="mb-4 text-sm text-slate-600">
        The group holds the customers who match every part below. Without dates, networks, access points or minimums, that is every
        customer. Rules are read with AND before OR: <em>a AND b OR c</em> means <em>(a AND b) OR c</em>.
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <fieldset disabled={!canEdit} className="space-y-4">
          <div className="grid gap-x-4 sm:grid-cols-3">
            <div className="mb-4">
              <label htmlFor={fields.byDate.id} className="label">
                By date
              </label>
              <select {...getSelectProps(fields.byDate)} className="input">
                <option value="NO">NO: all connections</option>
                <option value="YES">YES: connections between the dates</option>
              </select>
            </div>
            <Field
              label="Start date"
              inputProps={{ ...getInputProps(range.startDate, { type: "date" }), max: today }}
              errors={range.startDate.errors}
            />
            <Field
              label="End date"
              inputProps={{ ...getInputProps(range.endDate, { type: "date" }), max: today }}
              errors={range.endDate.errors}
            />
          </div>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field
              label="At least this many connections"
              inputProps={{ ...getInputProps(fields.connections, { type: "number" }), min: 0 }}
              errors={fields.connections.errors}
              hint="0: no minimum."
            />
            <Field
              label="On at least this many days"
              inputProps={{ ...getInputProps(fields.days, { type: "number" }), min: 0 }}
              errors={fields.days.errors}
              hint="0: no minimum."
            />
          </div>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <div className="mb-4">
              <label htmlFor={fields.venues.id} className="label">
                Networks
              </label>
              <select {...getSelectProps(fields.venues)} multiple size={Math.min(8, Math.max(3, choices.venues.length))} className="input">
                {choices.venues.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
              </select>
              <p className="mt-1 text-xs text-slate-500">None chosen: anywhere. Ctrl or ⌘ chooses several.</p>
              <ErrorList errors={fields.venues.errors} />
            </div>
            <div className="mb-4">
              <label htmlFor={fields.accessPoints.id} className="label">
                Access points
              </label>
              <select
                {...getSelectProps(fields.accessPoints)}
                multiple
                size={Math.min(8, Math.max(3, choices.accessPoints.length))}
                className="input"
              >
                {choices.accessPoints.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({venueNames.get(a.venueId) ?? "—"})
                  </option>
                ))}
              </select>
              <p className="mt-1 text-xs text-slate-500">None chosen: any. With networks too, a connection must be at both.</p>
              <ErrorList errors={fields.accessPoints.errors} />
            </div>
          </div>
          <fieldset>
            <legend className="label">Profile rules</legend>
            {rules.length === 0 ? <p className="mb-2 text-sm text-slate-500">No rules: any profile.</p> : null}
            <ol className="space-y-2">
              {rules.map((rule, index) => (
                <RuleRow
                  key={rule.key}
                  rule={rule}
                  index={index}
                  remove={form.remove.getButtonProps({ name: fields.profile.name, index })}
                />
              ))}
            </ol>
            <button {...form.insert.getButtonProps({ name: fields.profile.name, defaultValue: NEW_RULE })} className="btn-secondary mt-2">
              Add rule
            </button>
            <ErrorList errors={fields.profile.errors} />
          </fieldset>
          {canEdit ? (
            <SubmitButton pendingText="Saving…">Save filters</SubmitButton>
          ) : (
            <p className="text-sm text-slate-600">Changing the filters needs the Create groups permission.</p>
          )}
        </fieldset>
      </Form>
    </section>
  );
}

type RuleFields = { condition: string; field: string; equation: string; value: string };

function RuleRow({
  rule,
  index,
  remove,
}: {
  rule: FieldMetadata<RuleFields>;
  index: number;
  remove: ButtonHTMLAttributes<HTMLButtonElement>;
}) {
  const f = rule.getFieldset();
  return (
    <li className="flex flex-wrap items-start gap-2 rounded-md border border-slate-200 p-2">
      {index === 0 ? (
        <>
          <span className="w-20 py-2 text-sm font-medium text-slate-600">Where</span>
          <input type="hidden" name={f.condition.name} value="AND" />
        </>
      ) : (
        <select {...getSelectProps(f.condition)} aria-label={`Rule ${index + 1}: joined with`} className="input w-20">
          <option value="AND">AND</option>
          <option value="OR">OR</option>
        </select>
      )}
      <select {...getSelectProps(f.field)} aria-label={`Rule ${index + 1}: field`} className="input w-44">
        {FILTER_FIELDS.map((x) => (
          <option key={x} value={x}>
            {FILTER_FIELD_LABELS[x]}
          </option>
        ))}
      </select>
      <select {...getSelectProps(f.equation)} aria-label={`Rule ${index + 1}: comparison`} className="input w-40">
        {FILTER_EQUATIONS.map((x) => (
          <option key={x} value={x}>
            {FILTER_EQUATION_LABELS[x]}
          </option>
        ))}
      </select>
      <div className="min-w-40 flex-1">
        <input {...getInputProps(f.value, { type: "text" })} aria-label={`Rule ${index + 1}: value`} className="input" />
        <ErrorList errors={[...(f.equation.errors ?? []), ...(f.value.errors ?? [])]} />
      </div>
      <button {...remove} className="btn-secondary" aria-label={`Remove rule ${index + 1}`}>
        Remove
      </button>
    </li>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
