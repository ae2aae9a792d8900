// The broadcast's visual e-mail designer: GrapesJS with its newsletter preset (table-based blocks,
// CSS inlined on export), loaded in the browser only. Nothing leaves this origin: no icon CDN
// (cssIcons off), no telemetry, no storage (the page saves through onSave), no preset blocks with
// images from elsewhere, uploads to uploadUrl only. GrapesJS's stylesheet is the splash builder's
// (~/components/splash/builder-stylesheet), linked by the route.
import type { Editor, EditorConfig } from "grapesjs";
import { useEffect, useRef, useState } from "react";
import { EditorAlerts } from "~/components/ui/editor-alerts";
import { initEditor } from "~/lib/editor-canvas";

export interface EmailDesignerProps {
  /** The designer's project JSON saved earlier, or null: start from `html`. */
  design: string | null;
  /** The e-mail's saved HTML (used when design is null). */
  html: string;
  /** Images already uploaded (absolute URLs: mail programs fetch them), offered by the asset manager. */
  assets: { name: string; url: string }[];
  /** POST multipart/form-data, field "file"; 201 `{ data: { file: { name, url } } }`, 4xx `{ message }`. */
  uploadUrl: string;
  onSave: (data: { html: string; design: string }) => void;
  saving: boolean;
  canEdit: boolean;
}

// The preset's blocks but "grid-items" and "list-items", whose images come from via.placeholder.com.
const BLOCKS = ["sect100", "sect50", "sect30", "sect37", "button", "divider", "text", "text-sect", "image", "quote", "link", "link-block"];
/** The preset's toolbar buttons are icons only: their names, as tooltips (GrapesJS titles them from i18n). */
const BUTTON_TITLES: Record<string, string> = {
  "set-device-desktop": "Desktop",
  "set-device-tablet": "Tablet",
  "set-device-mobile": "Phone",
  "sw-visibility": "Outlines",
  preview: "Preview",
  fullscreen: "Full screen",
  "export-template": "View the code",
  "gjs-open-import-template": "Import HTML",
  "gjs-toggle-images": "Hide images",
  undo: "Undo",
  redo: "Redo",
  "canvas-clear": "Clear the design",
  "open-sm": "Styles",
  "open-tm": "Settings",
  "open-layers": "Layers",
  "open-blocks": "Blocks",
};
const UPLOAD_FAILED = "The image could not be uploaded.";
const INLINED_HTML = "gjs-get-inlined-html";

export default function EmailDesigner(props: EmailDesignerProps) {
  const latest = useRef(props);
  latest.current = props;
  const editorRef = useRef<Editor | null>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);

  // Created once per mount from the first props (the document being edited); StrictMode's first
  // instance is destroyed before the imports resolve, or right after.
  useEffect(() => {
    let cancelled = false;
    let editor: Editor | null = null;
    const mount = document.createElement("div");
    hostRef.current!.appendChild(mount);
    const { design, html, assets, uploadUrl } = latest.current;

    Promise.all([import("grapesjs"), import("grapesjs-preset-newsletter")])
      .then(([{ default: grapesjs }, preset]) => {
        if (cancelled) return;
        // The preset is a UMD bundle: its plugin is `default`, once or twice wrapped by the bundler's interop.
        const newsletter = (preset.default as unknown as { default?: typeof preset.default }).default ?? preset.default;
        const config: EditorConfig = {
          container: mount,
          height: "100%",
          width: "auto",
          telemetry: false,
          cssIcons: "",
          storageManager: false,
          i18n: { messagesAdd: { en: { panels: { buttons: { titles: BUTTON_TITLES } } } } },
          ...(design ? { projectData: JSON.parse(design) } : { components: html }),
          assetManager: {
            assets: assets.map((a) => ({ type: "image", src: a.url, name: a.name })),
            upload: uploadUrl,
            uploadName: "file",
            multiUpload: false,
            credentials: "same-origin",
            headers: {},
            autoAdd: false, // our answer is { data: { file } }: added below
            embedAsBase64: false,
            showUrlInput: false,
          },
          // updateStyleManager off: the preset's style controls draw Font Awesome icons, which are not loaded.
          plugins: [
            (ed: Editor) => newsletter(ed, { blocks: BLOCKS, updateStyleManager: false, textCleanCanvas: "Clear the whole design?" }),
          ],
        };
        editor = initEditor(grapesjs, config); // canvases that run no script
        const ed = editor;
        ed.on("asset:upload:start", () => setUploadError(null));
        ed.on("asset:upload:response", (answer: { data?: { file?: { name?: string; url?: string } } } | undefined) => {
          const file = answer?.data?.file;
          if (file?.url) ed.AssetManager.add({ type: "image", src: file.url, name: file.name ?? "" }, { at: 0 });
          else setUploadError(UPLOAD_FAILED);
        });
        ed.on("asset:upload:error", (error: unknown) => setUploadError(uploadErrorMessage(error)));
        editorRef.current = ed;
        setReady(true);
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!cancelled) setLoadError("The designer could not be loaded. Reload the page to try again.");
      });

    return () => {
      cancelled = true;
      editorRef.current = null;
      setReady(false);
      editor?.destroy();
      mount.remove();
    };
  }, []);

  const save = () => {
    const editor = editorRef.current;
    if (!editor || latest.current.saving) return;
    latest.current.onSave({ html: editor.runCommand(INLINED_HTML) as string, design: JSON.stringify(editor.getProjectData()) });
  };

  return (
    <div className="space-y-2">
      <EditorAlerts loadError={loadError} uploadError={uploadError} onDismissUpload={() => setUploadError(null)} />
      <div
        ref={hostRef}
        aria-label="E-mail designer"
        aria-busy={!ready}
        className="h-[75vh] min-h-[28rem] overflow-hidden rounded border border-slate-300 [&>div]:h-full"
      >
        {ready || loadError ? null : <p className="p-4 text-sm text-slate-600">Loading the designer…</p>}
      </div>
      {props.canEdit ? (
        <button type="button" className="btn-primary" disabled={!ready || props.saving} onClick={save}>
          {props.saving ? "Saving…" : "Save e-mail"}
        </button>
      ) : null}
    </div>
  );
}

/** The upload's `{ message }` (GrapesJS passes the answer's text or an Error), else a generic sentence. */
function uploadErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body?.message === "string" && body.message) return body.message;
  } catch {
    // not JSON: the generic sentence
  }
  return UPLOAD_FAILED;
}
