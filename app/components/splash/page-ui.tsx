// Pieces of the console's splash page screens: the status badge, the sandboxed preview of a draft,
// the details tabs and the page form (create and Details).
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, NavLink } from "@remix-run/react";
import { ErrorList, Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import type { SplashStatus } from "~/lib/splash-pages";
import { CSS_TEMPLATES, splashPageSchema } from "~/lib/schemas/splash";

const BADGE: Record<SplashStatus, string> = {
  "Not set up": "border-slate-300 bg-slate-100 text-slate-700",
  Draft: "border-amber-300 bg-amber-50 text-amber-800",
  Published: "border-green-300 bg-green-50 text-green-800",
  "Unpublished changes": "border-sky-300 bg-sky-50 text-sky-800",
};

export function StatusBadge({ status }: { status: SplashStatus }) {
  return <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${BADGE[status]}`}>{status}</span>;
}

/**
 * The draft as guests would see it, scaled down. Sandboxed without allow-scripts and
 * allow-same-origin (the preview answer carries the same sandbox as its CSP): the operator's
 * HTML can neither run scripts nor act with the console's origin.
 */
export function PagePreview({
  src,
  name,
  width = 1024,
  height = 768,
  scale = 0.25,
}: {
  src: string;
  name: string;
  width?: number;
  height?: number;
  scale?: number;
}) {
  return (
    <div
      className="relative overflow-hidden rounded border border-slate-200 bg-white"
      style={{ width: width * scale, height: height * scale, maxWidth: "100%" }}
    >
      <iframe
        src={src}
        title={`Preview of ${name}`}
        sandbox="allow-forms"
        loading="lazy"
        tabIndex={-1}
        className="pointer-events-none absolute left-0 top-0 origin-top-left border-0"
        style={{ width, height, transform: `scale(${scale})` }}
      />
    </div>
  );
}

export function NotSetUpPlaceholder({ width = 256, height = 192 }: { width?: number; height?: number }) {
  return (
    <div
      className="flex items-center justify-center rounded border border-dashed border-slate-300 bg-slate-50 text-sm text-slate-500"
      style={{ width, height, maxWidth: "100%" }}
    >
      Not set up
    </div>
  );
}

export interface SplashTab {
  to: string;
  label: string;
}

/**
 * The tabs of a set-up page (docs/guide/splash-pages.md#splash-page-details): Details, Options (if any), Builder or
 * HTML, Styles, Scripts, Presentation.
 */
export function splashTabs(type: number | null, hasConfigs: boolean): SplashTab[] {
  return [
    { to: "", label: "Details" },
    ...(hasConfigs ? [{ to: "options", label: "Options" }] : []),
    type === 1 ? { to: "builder", label: "Builder" } : { to: "html", label: "HTML" },
    { to: "styles", label: "Styles" },
    { to: "scripts", label: "Scripts" },
    { to: "presentation", label: "Presentation" },
  ];
}

export function SplashTabs({ base, tabs }: { base: string; tabs: SplashTab[] }) {
  return (
    <nav aria-label="Splash page" className="border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-1 text-sm">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to ? `${base}/${tab.to}` : base}
              end
              className={({ isActive }) =>
                `inline-block border-b-2 px-3 py-2 ${isActive ? "border-indigo-600 font-semibold text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const TEMPLATE_OPTIONS = CSS_TEMPLATES.map((t) => ({ value: t, label: t }));

export interface SplashPageFormValues {
  name?: string;
  css_template?: string;
  description?: string | null;
}

/** Page name, Styling template, Description: the create form and the Details tab. */
export function SplashPageForm({
  lastResult,
  defaultValue,
  readOnly = false,
  submitLabel,
  pendingText,
  showSubmit = true,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: SplashPageFormValues;
  readOnly?: boolean;
  submitLabel: string;
  pendingText: string;
  showSubmit?: boolean;
}) {
  const [form, fields] = useForm({
    id: "splash-page",
    lastResult,
    defaultValue: {
      name: defaultValue?.name ?? "",
      css_template: defaultValue?.css_template ?? "tailwind.css",
      description: defaultValue?.description ?? "",
    },
    constraint: getZodConstraint(splashPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: splashPageSchema }),
  });
  const { key: descriptionKey, ...descriptionProps } = getTextareaProps(fields.description);
  const descriptionErrorId = fields.description.errors?.length ? `${fields.description.id}-error` : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-2xl">
      <FormErrors errors={form.errors} />
      <Field label="Page name" inputProps={{ ...getInputProps(fields.name, { type: "text" }), readOnly }} errors={fields.name.errors} />
      <SelectField
        label="Styling template"
        selectProps={{ ...getSelectProps(fields.css_template), disabled: readOnly }}
        options={TEMPLATE_OPTIONS}
        errors={fields.css_template.errors}
      />
      <div className="mb-4">
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea
          key={descriptionKey}
          {...descriptionProps}
          rows={3}
          readOnly={readOnly}
          className="input"
          aria-invalid={descriptionErrorId ? true : undefined}
          aria-describedby={descriptionErrorId}
        />
        <ErrorList id={descriptionErrorId} errors={fields.description.errors} />
      </div>
      {showSubmit && !readOnly ? (
        <SubmitButton name="intent" value="save" pendingText={pendingText}>
          {submitLabel}
        </SubmitButton>
      ) : null}
    </Form>
  );
}
