// The splash page builder: GrapesJS core (no plugins) loaded in the browser only, with our own
// accessible toolbar and side panels. Nothing leaves this origin: no icon CDN, no telemetry, no
// storage (the page saves through onSave), uploads to uploadUrl only, no image URLs from elsewhere.
// The stylesheet lives in ./builder-stylesheet.ts (a .client module's exports are empty on the server).
import type { Editor, EditorConfig } from "grapesjs";
import { useEffect, useId, useRef, useState } from "react";
import { EditorAlerts } from "~/components/ui/editor-alerts";
import { initEditor } from "~/lib/editor-canvas";

export interface SplashBuilderProps {
  /** GrapesJS project JSON saved earlier, or null: import from html/css below. */
  projectData: string | null;
  /** Page HTML (used when projectData is null). */
  html: string;
  css: string;
  /** Stylesheet URLs loaded inside the canvas iframe (same-origin paths). */
  canvasStyles: string[];
  /** Page options; one block per option inserting `{{ config.NAME }}`. */
  configs: { name: string; title: string }[];
  /** Images already uploaded, offered by the asset manager. */
  assets: { name: string; url: string }[];
  /** POST multipart/form-data, field "file"; 201 `{ data: { file: { name, url } } }`, 4xx `{ message }` or `{ errors: { file: [...] } }`. */
  uploadUrl: string;
  onSave: (data: { projectData: string; html: string; css: string }) => void;
  saving?: boolean;
}

type Pane = "blocks" | "styles" | "settings" | "layers";
const PANES: { id: Pane; label: string }[] = [
  { id: "blocks", label: "Blocks" },
  { id: "styles", label: "Styles" },
  { id: "settings", label: "Settings" },
  { id: "layers", label: "Layers" },
];
const DEVICES = [
  { id: "desktop", name: "Desktop", width: "" },
  { id: "phone", name: "Phone", width: "360px", widthMedia: "480px" },
];

export const CONNECT_TYPE = "mlango-connect";
export const CONNECT_HTML = '<div class="mlango-connect">{{ connect_form }}</div>';
const CONNECT_PLACEHOLDER =
  '<div style="padding:24px 16px;border:2px dashed #94a3b8;border-radius:8px;background:#f1f5f9;color:#334155;' +
  'font:15px/1.4 system-ui,sans-serif;text-align:center">Guests\u2019 connect form appears here</div>';
const UPLOAD_FAILED = "The image could not be uploaded.";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The connect form component, the blocks and nothing else: runs before the page is loaded. */
function mlangoPlugin(configs: SplashBuilderProps["configs"]) {
  return (editor: Editor) => {
    editor.DomComponents.addType(CONNECT_TYPE, {
      // Children (the `{{ connect_form }}` text) are not parsed: the component owns its content.
      isComponent: (el: HTMLElement) => (el.classList?.contains(CONNECT_TYPE) ? { type: CONNECT_TYPE, components: [] } : undefined),
      model: {
        defaults: {
          tagName: "div",
          name: "Connect form",
          classes: [CONNECT_TYPE],
          droppable: false,
          editable: false,
          copyable: false,
          stylable: true,
        },
        toHTML: () => CONNECT_HTML,
      },
      view: {
        onRender({ el }: { el: HTMLElement }) {
          el.innerHTML = CONNECT_PLACEHOLDER;
        },
      },
    });

    const bm = editor.BlockManager;
    const basic = "Basic";
    bm.add("mlango-connect", { label: "Connect form", category: "Mlango", content: { type: CONNECT_TYPE } });
    configs.forEach(({ name, title }) =>
      bm.add(`config-${name}`, { label: escapeHtml(title), category: "Page options", content: `<span>{{ config.${name} }}</span>` }),
    );
    bm.add("heading", { label: "Heading", category: basic, content: "<h1>Welcome</h1>" });
    bm.add("text", {
      label: "Text",
      category: basic,
      content: { type: "text", content: "Write your text here.", style: { padding: "8px 0" } },
    });
    bm.add("image", {
      label: "Image",
      category: basic,
      activate: true, // opens the asset manager
      select: true,
      content: { type: "image", style: { "max-width": "100%", height: "auto" } },
    });
    bm.add("link", { label: "Link", category: basic, content: '<a href="#">Link text</a>' });
    bm.add("button", {
      label: "Button link",
      category: basic,
      content:
        '<a href="#" style="display:inline-block;padding:10px 20px;border-radius:6px;background:#2563eb;color:#ffffff;text-decoration:none">Button</a>',
    });
    bm.add("section", {
      label: "Section",
      category: "Layout",
      content: '<section style="padding:24px 16px;min-height:80px"></section>',
    });
    bm.add("columns", {
      label: "Two columns",
      category: "Layout",
      content:
        '<div style="display:flex;flex-wrap:wrap;gap:16px;padding:8px 0">' +
        '<div style="flex:1 1 240px;min-height:80px"></div><div style="flex:1 1 240px;min-height:80px"></div></div>',
    });
  };
}

/** `{ message }`, `{ errors: { file: [...] } }`, a short text, or a generic sentence. */
/** Resolves when the canvas's style sheets have loaded (or failed, or after 5 s). */
function stylesLoaded(doc: Document | null | undefined): Promise<unknown> {
  const links = [...(doc?.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]') ?? [])];
  return Promise.all(
    links.map((link) =>
      link.sheet
        ? undefined
        : new Promise((resolve) => {
            link.addEventListener("load", resolve, { once: true });
            link.addEventListener("error", resolve, { once: true });
            setTimeout(resolve, 5_000);
          }),
    ),
  );
}

function uploadErrorMessage(error: unknown): string {
  const text = error instanceof Error ? "" : typeof error === "string" ? error : "";
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: { file?: unknown } };
    const first = Array.isArray(body?.errors?.file) ? body.errors.file[0] : undefined;
    if (typeof first === "string" && first) return first;
    if (typeof body?.message === "string" && body.message) return body.message;
  } catch {
    if (text && text.length < 200 && !text.includes("<")) return text;
  }
  return UPLOAD_FAILED;
}

export default function SplashBuilder(props: SplashBuilderProps) {
  const { saving = false } = props;
  const latest = useRef(props);
  latest.current = props;
  const editorRef = useRef<Editor | null>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const paneRefs = {
    blocks: useRef<HTMLDivElement>(null),
    selectors: useRef<HTMLDivElement>(null),
    styles: useRef<HTMLDivElement>(null),
    settings: useRef<HTMLDivElement>(null),
    layers: useRef<HTMLDivElement>(null),
  };
  const uid = useId();
  const [ready, setReady] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [pane, setPane] = useState<Pane>("blocks");
  const [device, setDevice] = useState("desktop");
  const [outlines, setOutlines] = useState(true);

  const save = () => {
    const editor = editorRef.current;
    if (!editor || latest.current.saving) return;
    latest.current.onSave({
      projectData: JSON.stringify(editor.getProjectData()),
      html: editor.getHtml(),
      css: editor.getCss() ?? "",
    });
  };
  const saveRef = useRef(save);
  saveRef.current = save;

  // The editor is created once per mount from the first props (they are the document being edited).
  // Under StrictMode the first instance is destroyed before the dynamic import resolves, or right after.
  useEffect(() => {
    let cancelled = false;
    let editor: Editor | null = null;
    const host = canvasRef.current!;
    const panes = Object.fromEntries(Object.entries(paneRefs).map(([k, ref]) => [k, ref.current!])) as Record<
      keyof typeof paneRefs,
      HTMLDivElement
    >;
    const mount = document.createElement("div");
    mount.style.height = "100%";
    mount.style.visibility = "hidden";
    host.appendChild(mount);
    const { projectData, html, css, canvasStyles, configs, assets, uploadUrl } = latest.current;

    import("grapesjs")
      .then(({ default: grapesjs }) => {
        if (cancelled) return;
        const config: EditorConfig = {
          container: mount,
          height: "100%",
          width: "auto",
          telemetry: false,
          cssIcons: "",
          storageManager: false,
          panels: { defaults: [] },
          ...(projectData ? { projectData: JSON.parse(projectData) } : { components: html, style: css }),
          canvas: { styles: canvasStyles },
          deviceManager: { devices: DEVICES },
          blockManager: { appendTo: panes.blocks },
          selectorManager: { appendTo: panes.selectors, componentFirst: true },
          styleManager: { appendTo: panes.styles },
          traitManager: { appendTo: panes.settings },
          layerManager: { appendTo: panes.layers },
          assetManager: {
            assets: assets.map((a) => ({ type: "image", src: a.url, name: a.name })),
            upload: uploadUrl,
            uploadName: "file",
            multiUpload: false,
            credentials: "same-origin",
            headers: {},
            autoAdd: false, // our answer is { data: { file } }: added below
            embedAsBase64: false,
            showUrlInput: false, // images come from this origin only
          },
          plugins: [mlangoPlugin(configs)],
        };
        editor = initEditor(grapesjs, config); // canvases that run no script
        const ed = editor;
        ed.on("asset:upload:start", () => setUploadError(null));
        ed.on("asset:upload:response", (json: { data?: { file?: { name?: string; url?: string } } } | undefined) => {
          const file = json?.data?.file;
          if (file?.url) ed.AssetManager.add({ type: "image", src: file.url, name: file.name ?? "" }, { at: 0 });
          else setUploadError(uploadErrorMessage(JSON.stringify(json ?? null)));
        });
        ed.on("asset:upload:error", (error: unknown) => setUploadError(uploadErrorMessage(error)));
        ed.Keymaps.add("mlango:save", "⌘+s, ctrl+s", () => saveRef.current(), { prevent: true });
        ed.runCommand("core:component-outline");
        // GrapesJS 0.23 appends the selector manager twice to appendTo; keep the last (the module's own view).
        // Ready once the canvas has its page and its style sheets: until then "Loading the builder…" shows
        // and the canvas is hidden, not an unstyled page.
        ed.onReady(() => {
          while (panes.selectors.children.length > 1) panes.selectors.firstElementChild?.remove();
          void stylesLoaded(ed.Canvas.getDocument()).then(() => {
            if (cancelled) return;
            mount.style.visibility = "";
            setReady(true);
          });
        });
        editorRef.current = ed;
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!cancelled) setLoadError("The builder could not be loaded. Reload the page to try again.");
      });

    return () => {
      cancelled = true;
      editorRef.current = null;
      setReady(false);
      editor?.destroy();
      mount.remove();
      Object.values(panes).forEach((el) => el.replaceChildren());
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- created once per mount, see above
  }, []);

  const chooseDevice = (id: string) => {
    editorRef.current?.setDevice(id);
    setDevice(id);
  };
  const toggleOutlines = () => {
    const editor = editorRef.current;
    if (!editor) return;
    if (outlines) editor.stopCommand("core:component-outline");
    else editor.runCommand("core:component-outline");
    setOutlines(!outlines);
  };

  const button =
    "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50";
  const pressed = "aria-pressed:border-blue-600 aria-pressed:bg-blue-50 aria-pressed:text-blue-800";
  return (
    <div className="space-y-2">
      <EditorAlerts loadError={loadError} uploadError={uploadError} onDismissUpload={() => setUploadError(null)} />
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Builder">
        <div className="flex gap-1" role="group" aria-label="Device">
          {DEVICES.map((d) => (
            <button
              key={d.id}
              type="button"
              className={`${button} ${pressed}`}
              aria-pressed={device === d.id}
              disabled={!ready}
              onClick={() => chooseDevice(d.id)}
            >
              {d.name}
            </button>
          ))}
        </div>
        <button type="button" className={`${button} ${pressed}`} aria-pressed={outlines} disabled={!ready} onClick={toggleOutlines}>
          Outlines
        </button>
        <button type="button" className={button} disabled={!ready} onClick={() => editorRef.current?.UndoManager.undo()}>
          Undo
        </button>
        <button type="button" className={button} disabled={!ready} onClick={() => editorRef.current?.UndoManager.redo()}>
          Redo
        </button>
        <button
          type="button"
          className="ml-auto rounded bg-blue-600 px-4 py-1.5 text-sm font-semibold text-white hover:bg-blue-700 disabled:opacity-50"
          disabled={!ready || saving}
          onClick={save}
        >
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
      <div className="flex flex-col gap-2 lg:flex-row">
        <div
          ref={canvasRef}
          aria-label="Page canvas"
          aria-busy={!ready}
          className="h-[75vh] min-h-[28rem] min-w-0 flex-1 overflow-hidden rounded border border-slate-300 bg-slate-200 [&_.gjs-cv-canvas]:top-0 [&_.gjs-cv-canvas]:h-full [&_.gjs-cv-canvas]:w-full"
        >
          {ready || loadError ? null : <p className="p-4 text-sm text-slate-600">Loading the builder…</p>}
        </div>
        <div className="gjs-one-bg gjs-two-color flex h-[75vh] min-h-[28rem] flex-col overflow-hidden rounded lg:w-80 [&_.gjs-block]:min-h-0 [&_.gjs-block]:py-3">
          <div className="flex shrink-0 border-b border-slate-600" role="tablist" aria-label="Builder panels">
            {PANES.map((p) => (
              <button
                key={p.id}
                type="button"
                role="tab"
                id={`${uid}-tab-${p.id}`}
                aria-controls={`${uid}-pane-${p.id}`}
                aria-selected={pane === p.id}
                className="flex-1 px-2 py-2 text-sm aria-selected:bg-slate-700 aria-selected:font-semibold"
                onClick={() => setPane(p.id)}
              >
                {p.label}
              </button>
            ))}
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto">
            <div
              role="tabpanel"
              id={`${uid}-pane-blocks`}
              aria-labelledby={`${uid}-tab-blocks`}
              hidden={pane !== "blocks"}
              ref={paneRefs.blocks}
            />
            <div role="tabpanel" id={`${uid}-pane-styles`} aria-labelledby={`${uid}-tab-styles`} hidden={pane !== "styles"}>
              <div ref={paneRefs.selectors} />
              <div ref={paneRefs.styles} />
            </div>
            <div
              role="tabpanel"
              id={`${uid}-pane-settings`}
              aria-labelledby={`${uid}-tab-settings`}
              hidden={pane !== "settings"}
              ref={paneRefs.settings}
            />
            <div
              role="tabpanel"
              id={`${uid}-pane-layers`}
              aria-labelledby={`${uid}-tab-layers`}
              hidden={pane !== "layers"}
              ref={paneRefs.layers}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
