/**
 * The network multi-select of the dashboard's filter form: checkboxes named `venues` in a
 * disclosure, so it works without JavaScript (the date range form's Apply sends them).
 */
export function VenueSelect({ venues, selected }: { venues: readonly { id: number; name: string }[]; selected: readonly number[] }) {
  const chosen = new Set(selected);
  const summary =
    selected.length === 0
      ? "All networks"
      : selected.length === 1
        ? (venues.find((v) => v.id === selected[0])?.name ?? "1 network")
        : `${selected.length} networks`;
  return (
    <div className="flex flex-col gap-1">
      <span className="text-slate-600">Networks</span>
      <details className="relative">
        <summary className="input w-56 cursor-pointer list-none truncate" aria-label={`Networks: ${summary}`}>
          {summary}
        </summary>
        <fieldset className="absolute z-20 mt-1 max-h-72 w-64 overflow-auto rounded border border-slate-200 bg-white p-2 shadow">
          <legend className="sr-only">Networks shown (none ticked: all)</legend>
          {venues.length === 0 ? <p className="p-1 text-slate-500">No networks yet.</p> : null}
          {venues.map((v) => (
            <label key={v.id} className="flex items-center gap-2 rounded px-1 py-1 hover:bg-slate-50">
              <input type="checkbox" name="venues" value={v.id} defaultChecked={chosen.has(v.id)} />
              <span className="truncate">{v.name}</span>
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  );
}
