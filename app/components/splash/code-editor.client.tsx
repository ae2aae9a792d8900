// A CodeMirror editor for a splash page's HTML, CSS or JavaScript. The current text also sits in a
// hidden input, so the surrounding form's Save button posts it; leaving the editor with changes
// calls onBlurSave (the spec: code is saved when the editor loses focus).
import { css } from "@codemirror/lang-css";
import { html } from "@codemirror/lang-html";
import { javascript } from "@codemirror/lang-javascript";
import CodeMirror, { EditorState, EditorView, type ReactCodeMirrorRef } from "@uiw/react-codemirror";
import { useMemo, useRef, useState, type FocusEvent } from "react";

export interface CodeEditorProps {
  /** Put on the editable area (CodeMirror's content element). */
  id: string;
  /** Name of the hidden input carrying the current text. */
  name: string;
  label: string;
  language: "html" | "css" | "javascript";
  defaultValue: string;
  onBlurSave?: (value: string) => void;
  readOnly?: boolean;
}

const LANGUAGES = { html: () => html(), css: () => css(), javascript: () => javascript() };

export default function CodeEditor({ id, name, label, language, defaultValue, onBlurSave, readOnly = false }: CodeEditorProps) {
  const [value, setValue] = useState(defaultValue);
  const lastSaved = useRef(defaultValue);
  const editor = useRef<ReactCodeMirrorRef>(null);
  const labelId = `${id}-label`;

  const extensions = useMemo(
    () => [
      LANGUAGES[language](),
      EditorState.tabSize.of(4),
      EditorView.contentAttributes.of({ id, "aria-labelledby": labelId, "aria-multiline": "true" }),
    ],
    [language, id, labelId],
  );

  // focusout bubbles from CodeMirror's content element; moving within the editor (its search panel) is not leaving it.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    if (readOnly || value === lastSaved.current) return;
    lastSaved.current = value;
    onBlurSave?.(value);
  };

  return (
    <div className="space-y-1">
      {/* A contenteditable area is not labelable by `for`: the label names it through aria-labelledby and focuses it on click. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a pointer convenience; keyboard users tab to the editor */}
      <label id={labelId} className="block text-sm font-medium text-slate-700" onClick={() => editor.current?.view?.focus()}>
        {label}
      </label>
      <div onBlur={onBlur} className="overflow-hidden rounded border border-slate-300 text-sm">
        <CodeMirror
          ref={editor}
          value={value}
          onChange={setValue}
          theme="dark"
          minHeight="24rem"
          // basicSetup gives line numbers, folding, search…; its tabSize sets indentUnit to four spaces.
          basicSetup={{ tabSize: 4 }}
          extensions={extensions}
          readOnly={readOnly}
          editable={!readOnly}
        />
      </div>
      <input type="hidden" name={name} value={value} />
    </div>
  );
}
