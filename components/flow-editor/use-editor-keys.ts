import type { KeyboardEvent } from "react";
import type { EditorStore } from "./store";

/** Undo, redo, copy and paste on the canvas; typing in a field keeps the browser's own shortcuts. */
export const editorKeys = (draft: EditorStore) => (event: KeyboardEvent) => {
  const target = event.target as HTMLElement;
  if (target.closest("input, textarea, select, [contenteditable]")) return;
  const mod = event.metaKey || event.ctrlKey;
  if (mod && event.key.toLowerCase() === "z") {
    event.preventDefault();
    if (event.shiftKey) draft.getState().redo();
    else draft.getState().undo();
  } else if (mod && event.key.toLowerCase() === "y") {
    event.preventDefault();
    draft.getState().redo();
  } else if (mod && event.key.toLowerCase() === "c") {
    if (draft.getState().copySelection() > 0) event.preventDefault();
  } else if (mod && event.key.toLowerCase() === "v") {
    event.preventDefault();
    draft.getState().paste();
  }
};
