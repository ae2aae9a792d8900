import type { SurveyStatus } from "~/lib/schemas/surveys";

const STATUS_CLASS: Record<SurveyStatus, string> = {
  Upcoming: "bg-amber-100 text-amber-800",
  Active: "bg-emerald-100 text-emerald-800",
  Expired: "bg-slate-200 text-slate-700",
};

/** A survey's status (docs/guide/surveys.md#survey-list: derived from its dates). */
export function StatusBadge({ status }: { status: SurveyStatus }) {
  return <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[status]}`}>{status}</span>;
}
