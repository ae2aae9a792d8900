import { getFormProps, getTextareaProps, useForm, type FieldMetadata } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import { ClientOnly } from "remix-utils/client-only";
import { builderStylesheet } from "~/components/splash/builder-stylesheet";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ErrorList, FormErrors, SubmitButton } from "~/components/ui/field";
import { hasAny } from "~/lib/permissions";
import { parseId } from "~/lib/ids";
import { broadcastEmailPageSchema, broadcastEmailSchema } from "~/lib/schemas/broadcasts";
import { cleanHtml } from "~/services/editor-content.server";
import { requireOrg } from "~/services/guard.server";
import { EDIT_BROADCASTS, getBroadcast, updateBroadcastEmail, VIEW_BROADCASTS } from "~/services/marketing/broadcasts.server";
import { redirectWithToast } from "~/services/session.server";
import { listAssets } from "~/services/splash/assets.server";
import { parseForm } from "~/services/forms.server";

// GrapesJS and the newsletter preset load in the browser only, and only on this page.
const EmailDesigner = lazy(() => import("~/components/marketing/email-designer.client"));

export const links: LinksFunction = () => [{ rel: "stylesheet", href: builderStylesheet }];

// broadcast/{id}/email (docs/guide/marketing.md#broadcasts): the e-mail as an HTML body and a
// plain-text body, edited as text so it works offline and without JavaScript; the subject is the
// broadcast's title. The spec's react-email-editor loads its code from its vendor at run time, which
// this offline product cannot do; with JavaScript, the offline GrapesJS newsletter designer edits it
// instead (its HTML saved with the CSS inlined, its project kept as email_design to open it again).
// The preview renders the saved HTML in a sandboxed frame (no scripts, no same origin), never in the
// console's own page.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, ...VIEW_BROADCASTS);
  const b = await getBroadcast(ctx, parseId(params.id));
  return json({
    orgId: ctx.org.id,
    broadcast: { id: b.id, title: b.title, updated_at: b.updated_at, has_design: b.email_design !== null },
    values: { email_html: b.email_html ?? "", email_text: b.email_text ?? "" },
    design: b.email_design,
    // Without a design the designer imports the HTML: cleaned like a design, as it becomes the canvas.
    designerHtml: b.email_design === null ? cleanHtml(b.email_html ?? "") : "",
    // The organisation's images (shared with splash pages), as absolute URLs: mail programs fetch them.
    assets: hasAny(ctx.permissions, "view_splash_pages", "edit_splash_pages")
      ? (await listAssets(ctx)).map((a) => ({ name: a.name, url: a.url }))
      : [],
    uploadUrl: `/${ctx.org.id}/broadcast/${b.id}/assets`,
    canEdit: hasAny(ctx.permissions, ...EDIT_BROADCASTS),
  });
}

const DESIGNER_INTENT = "designer";

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, ...EDIT_BROADCASTS);
  const id = parseId(params.id);
  await getBroadcast(ctx, id); // 404 before the form is looked at
  const form = await request.formData();
  // The designer posts its inlined HTML and its project; HTML saved by hand drops the project.
  if (form.get("intent") === DESIGNER_INTENT) {
    const submission = parseForm(form, { schema: broadcastEmailSchema });
    if (submission.status !== "success")
      return json(submission.reply({ formErrors: Object.values(submission.error ?? {}).flatMap((e) => e ?? []) }), { status: 400 });
    const { message } = await updateBroadcastEmail(ctx, id, submission.value);
    return redirectWithToast(request, `/${ctx.org.id}/broadcast/${id}/email`, message);
  }
  const submission = parseForm(form, { schema: broadcastEmailPageSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { message } = await updateBroadcastEmail(ctx, id, { ...submission.value, email_design: null });
  return redirectWithToast(request, `/${ctx.org.id}/broadcast/${id}/email`, message);
}

function CodeArea({
  label,
  field,
  rows,
  hint,
  readOnly,
}: {
  label: string;
  field: FieldMetadata<unknown>;
  rows: number;
  hint: string;
  readOnly: boolean;
}) {
  const { key, ...props } = getTextareaProps(field);
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  return (
    <div className="mb-4">
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      <textarea
        key={key}
        {...props}
        rows={rows}
        readOnly={readOnly}
        spellCheck={false}
        className="input font-mono text-sm"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      />
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}

export default function BroadcastEmail() {
  const { orgId, broadcast, values, design, designerHtml, assets, uploadUrl, canEdit } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [designing, setDesigning] = useState(false);
  const submit = useSubmit();
  const navigation = useNavigation();
  const designerSaving = navigation.state !== "idle" && navigation.formData?.get("intent") === DESIGNER_INTENT;
  const [form, fields] = useForm({
    id: `broadcast-email-${broadcast.updated_at}`,
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(broadcastEmailPageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: broadcastEmailPageSchema }),
  });
  return (
    <div className="space-y-4">
      <section className="card">
        <h2 className="mb-1 text-lg font-semibold">E-mail</h2>
        <p className="mb-4 text-sm text-slate-600">
          Subject: <span className="font-medium text-slate-900">{broadcast.title}</span> (the broadcast's title;{" "}
          <Link to={`/${orgId}/broadcast/${broadcast.id}/settings`} className="link">
            change it in Settings
          </Link>
          ).
        </p>
        <ClientOnly>
          {() => (
            <button type="button" className="btn-secondary mb-4" aria-pressed={designing} onClick={() => setDesigning(!designing)}>
              Visual designer
            </button>
          )}
        </ClientOnly>
        {designing ? (
          <ClientOnly>
            {() => (
              <Suspense fallback={<p className="text-sm text-slate-600">Loading the designer…</p>}>
                <div className="mb-4">
                  <EmailDesigner
                    design={design}
                    html={designerHtml}
                    assets={assets}
                    uploadUrl={uploadUrl}
                    canEdit={canEdit}
                    saving={designerSaving}
                    onSave={({ html, design }) => {
                      // The plain text is the textarea's, as typed (not yet saved).
                      const text = document.getElementById(fields.email_text.id) as HTMLTextAreaElement | null;
                      submit(
                        { intent: DESIGNER_INTENT, email_html: html, email_design: design, email_text: text?.value ?? values.email_text },
                        { method: "post", encType: "multipart/form-data" },
                      );
                    }}
                  />
                </div>
              </Suspense>
            )}
          </ClientOnly>
        ) : broadcast.has_design ? (
          <p className="mb-4 text-sm text-slate-600">
            This HTML was made with a visual designer: saving it here keeps your HTML and drops the designer's layout.
          </p>
        ) : null}
        {/* multipart: HTML is sent as it is, not percent-encoded to three times its size. */}
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
          <FormErrors errors={form.errors} />
          {/* While the designer is open it owns the HTML: the textarea and its button are hidden. */}
          <div hidden={designing}>
            <CodeArea
              label="HTML body"
              field={fields.email_html}
              rows={18}
              readOnly={!canEdit}
              hint="The e-mail as HTML, with inline styles. An unsubscribe link is added to every e-mail sent."
            />
          </div>
          <CodeArea
            label="Plain-text body"
            field={fields.email_text}
            rows={8}
            readOnly={!canEdit}
            hint="For mail programs that do not show HTML. Without an HTML body, this is the whole e-mail."
          />
          {canEdit ? (
            designing ? null : (
              <SubmitButton pendingText="Saving…">Save e-mail</SubmitButton>
            )
          ) : (
            <p className="text-sm text-slate-600">Changing the e-mail needs the Create broadcasts permission.</p>
          )}
        </Form>
      </section>
      <section className="card">
        <h2 className="mb-3 text-lg font-semibold">Preview</h2>
        {values.email_html ? (
          // An empty sandbox: the HTML cannot run scripts, reach the console's origin or navigate it.
          <iframe
            sandbox=""
            srcDoc={values.email_html}
            title="Preview of the saved e-mail"
            className="h-[600px] w-full rounded-md border border-slate-200 bg-white"
          />
        ) : values.email_text ? (
          <pre className="whitespace-pre-wrap rounded-md border border-slate-200 p-4 text-sm">{values.email_text}</pre>
        ) : (
          <p className="text-sm text-slate-500">Save an HTML or plain-text body to see it here.</p>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
