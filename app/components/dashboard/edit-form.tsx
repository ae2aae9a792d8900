import { useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

export interface EditActionData {
  ok: boolean;
  error?: string;
}

/**
 * One dashboard edit (spec 1 §4: every change is saved at once). Without JavaScript a plain POST
 * that comes back to the same page; with it a fetcher, so the page does not reload, and the
 * `_fetcher` field asks the action for JSON instead of a redirect. A failed save says so here.
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
  const fetcher = useFetcher<EditActionData>();
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" preventScrollReset className={className}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? <input type="hidden" name="_fetcher" value="1" /> : null}
      {children}
      <button type="submit" name="intent" value={intent} className={buttonClassName} disabled={busy} aria-busy={busy || undefined}>
        {label}
      </button>
      {fetcher.data && !fetcher.data.ok ? (
        <p role="alert" className="mt-1 basis-full text-sm text-red-700">
          {fetcher.data.error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
