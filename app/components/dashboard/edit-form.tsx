import { useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

export interface EditActionData {
  ok: boolean;
  error?: string;
}

// Every edit form shares one fetcher: one save at a time (the buttons wait for it), and its answer
// outlives the form that sent it — a refused edit of a row that is gone must still be reported
// after the page has revalidated without that row (see EditFailure).
const EDIT_FETCHER_KEY = "dashboard-edit";

/**
 * One dashboard edit (docs/guide/dashboard.md#edit-mode: every change is saved at once). Without
 * JavaScript a plain POST that comes back to the same page; with it a fetcher, so the page does
 * not reload, and the `_fetcher` field asks the action for JSON instead of a redirect. A failed
 * save is reported by EditFailure on the page.
 */
export function EditForm({
  intent,
  fields = {},
  children,
  label,
  className = "",
  buttonClassName = "btn-secondary",
}: {
  intent: string;
  fields?: Record<string, string>;
  /** Inputs shown before the button (a select, radio buttons). */
  children?: ReactNode;
  label: ReactNode;
  className?: string;
  buttonClassName?: string;
}) {
  const fetcher = useFetcher<EditActionData>({ key: EDIT_FETCHER_KEY });
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  // The button that sent the edit under way says so until the dashboard has its new data.
  const sent = fetcher.formData;
  const mine = busy && sent?.get("intent") === intent && Object.entries(fields).every(([name, value]) => sent.get(name) === value);
  return (
    <fetcher.Form method="post" preventScrollReset className={className}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? <input type="hidden" name="_fetcher" value="1" /> : null}
      {children}
      <button type="submit" name="intent" value={intent} className={buttonClassName} disabled={busy} aria-busy={mine || undefined}>
        {mine ? <Spinner /> : null}
        {label}
      </button>
    </fetcher.Form>
  );
}

function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="mr-1.5 inline-block h-3 w-3 animate-spin rounded-full border-2 border-current border-r-transparent align-[-1px]"
    />
  );
}

/** Whether a dashboard edit is being saved, or the dashboard is being read again after one. */
export function useDashboardEditBusy(): false | "saving" | "updating" {
  const fetcher = useFetcher<EditActionData>({ key: EDIT_FETCHER_KEY });
  return fetcher.state === "submitting" ? "saving" : fetcher.state === "loading" ? "updating" : false;
}

/**
 * Says what an edit click is doing while it runs: saving it, then reading the dashboard again
 * (which can take seconds with many dashlets), so a click is never met with nothing.
 */
export function EditStatus({ className }: { className?: string }) {
  const busy = useDashboardEditBusy();
  return (
    <span role="status" aria-live="polite" className={className}>
      {busy ? (
        <>
          <Spinner />
          {busy === "saving" ? "Saving the change…" : "Updating the dashboard…"}
        </>
      ) : null}
    </span>
  );
}

/** The message of the last edit saved through a fetcher, when it failed. */
export function EditFailure({ className }: { className: string }) {
  const fetcher = useFetcher<EditActionData>({ key: EDIT_FETCHER_KEY });
  if (!fetcher.data || fetcher.data.ok || fetcher.state !== "idle") return null;
  return (
    <p role="alert" className={className}>
      {fetcher.data.error}
    </p>
  );
}
