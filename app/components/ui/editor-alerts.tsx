/** A browser editor's failures (the splash builder, the e-mail designer): it could not load; an upload failed (dismissable). */
export function EditorAlerts({
  loadError,
  uploadError,
  onDismissUpload,
}: {
  loadError: string | null;
  uploadError: string | null;
  onDismissUpload: () => void;
}) {
  return (
    <>
      {loadError ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {loadError}
        </p>
      ) : null}
      {uploadError ? (
        <div
          role="alert"
          className="flex items-start justify-between gap-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          <span>{uploadError}</span>
          <button type="button" className="underline" onClick={onDismissUpload}>
            Dismiss
          </button>
        </div>
      ) : null}
    </>
  );
}
