// The canvas frames of the console's GrapesJS editors (the splash page builder, the e-mail designer).
// GrapesJS needs its frames on the console's own origin (it edits their DOM from the page), so each
// frame's document carries a policy of its own that refuses every script: GrapesJS writes this document
// into the empty frame before it adds the head, the styles and the components, and a policy once applied
// stays (removing the element does not lift it), so nothing an editor is given, or adds later, runs
// there (docs/decisions/0067-editor-canvas-script.md).
import type { Editor, EditorConfig } from "grapesjs";

export const CANVAS_POLICY = "script-src 'none'; object-src 'none'; base-uri 'none'";

/** GrapesJS's `canvas.frameContent`: the document a canvas frame starts from. */
export const CANVAS_FRAME_CONTENT = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="${CANVAS_POLICY}"></head><body></body></html>`;

/**
 * grapesjs.init with the policy in both of the editor's canvases: the one shown, and the hidden one
 * GrapesJS draws a dragged block in, which it makes from its own defaults, not from `config` — so it is
 * set before the editor renders them.
 */
export function initEditor(grapesjs: { init: (config: EditorConfig) => Editor }, config: EditorConfig): Editor {
  const editor = grapesjs.init({ ...config, autorender: false, canvas: { ...config.canvas, frameContent: CANVAS_FRAME_CONTENT } });
  editor.getModel().shallow.Canvas.getConfig().frameContent = CANVAS_FRAME_CONTENT;
  editor.render();
  return editor;
}
