/**
 * Undo/redo over snapshots of the draft. Pure: the editor's store records the snapshot it is about to leave before
 * each change (add, delete, connect, a config edit, the end of a drag, a layout), and undo swaps it back.
 */

export type UndoStack<T> = { past: T[]; future: T[] };

export const LIMIT = 100;

export const emptyStack = <T>(): UndoStack<T> => ({ past: [], future: [] });

/** `current` is about to change: it becomes undoable, and anything redoable is dropped. */
export const record = <T>(stack: UndoStack<T>, current: T, limit = LIMIT): UndoStack<T> => ({
  past: [...stack.past, current].slice(-limit),
  future: [],
});

export const undo = <T>(stack: UndoStack<T>, current: T): { stack: UndoStack<T>; value: T } | null => {
  const value = stack.past.at(-1);
  if (value === undefined) return null;
  return { stack: { past: stack.past.slice(0, -1), future: [current, ...stack.future] }, value };
};

export const redo = <T>(stack: UndoStack<T>, current: T): { stack: UndoStack<T>; value: T } | null => {
  const value = stack.future[0];
  if (value === undefined) return null;
  return { stack: { past: [...stack.past, current], future: stack.future.slice(1) }, value };
};
