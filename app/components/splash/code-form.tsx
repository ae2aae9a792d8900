// The HTML, Styles and Scripts tabs (and the builder's no-JavaScript fallback): a plain form with a
// textarea and Save, which works without JavaScript; once hydrated the textarea becomes the code
// editor, whose hidden input carries the same name (so Save posts it) and which saves on its own
// when it loses focus (docs/guide/splash-pages.md#splash-page-details), after which the page's data
// is reloaded.
import { Form, useActionData, useFetcher, useNavigation } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { ClientOnly } from "remix-utils/client-only";
import { FormErrors, SubmitButton } from "~/components/ui/field";

// The editor (CodeMirror) is loaded in the browser only, after the page is usable.
const CodeEditor = lazy(() => import("./code-editor.client"));

export type CodeField = "html" | "css" | "custom_scripts";

export interface CodeSaveResult {
  ok: boolean;
  message: string;
}

interface CodeFormProps {
  field: CodeField;
  language: "html" | "css" | "javascript";
  label: string;
  value: string;
  canEdit: boolean;
  /** Where the form posts (default: the current route). */
  action?: string;
}

export function CodeForm({ field, language, label, value, canEdit, action }: CodeFormProps) {
  const actionData = useActionData<Partial<CodeSaveResult> | null>();
  const fetcher = useFetcher<CodeSaveResult>();
  const id = `code-${field}`;
  const navigation = useNavigation();
  // One outcome at a time, the latest: a Save refused after an autosave went through must not
  // stand beside that autosave's "saved", nor an autosave's answer beside an older refusal.
  const [latest, setLatest] = useState<"autosave" | "save" | null>(null);
  useEffect(() => setLatest(fetcher.data ? "autosave" : null), [fetcher.data]);
  useEffect(() => setLatest(actionData ? "save" : null), [actionData]);
  const busy = fetcher.state !== "idle" || navigation.state === "submitting";
  const autosaved = !busy && latest !== "save" ? fetcher.data : undefined;
  const refused =
    !busy && latest !== "autosave" && typeof actionData?.message === "string" && actionData.ok === false ? actionData.message : null;
  const textarea = (
    <div className="space-y-1">
      <label htmlFor={id} className="label">
        {label}
      </label>
      <textarea
        id={id}
        name={field}
        rows={24}
        defaultValue={value}
        readOnly={!canEdit}
        spellCheck={false}
        className="input font-mono text-xs"
      />
    </div>
  );
  return (
    <Form method="post" action={action} className="space-y-3">
      {refused ? <FormErrors errors={[refused]} /> : null}
      {autosaved && !autosaved.ok ? <FormErrors errors={[autosaved.message]} /> : null}
      {autosaved?.ok ? (
        <p role="status" className="text-sm text-green-700">
          {autosaved.message}
        </p>
      ) : (
        <p className="sr-only" role="status" />
      )}
      {canEdit ? null : (
        <p className="text-sm text-slate-600">You can read this code; changing it needs the Edit splash pages permission.</p>
      )}
      <ClientOnly fallback={textarea}>
        {() => (
          <Suspense fallback={textarea}>
            <CodeEditor
              id={id}
              name={field}
              label={label}
              language={language}
              defaultValue={value}
              readOnly={!canEdit}
              onBlurSave={(next) => {
                if (next === value) return;
                fetcher.submit({ intent: "autosave", [field]: next }, { method: "post", action, encType: "multipart/form-data" });
              }}
            />
          </Suspense>
        )}
      </ClientOnly>
      {/* Read-only: the code can be read and copied, and there is nothing to save. */}
      {canEdit ? (
        <SubmitButton name="intent" value="save" pendingText="Saving…">
          Save
        </SubmitButton>
      ) : null}
    </Form>
  );
}
