"use client";

import { useEffect } from "react";
import { useNarrowScreen } from "@/components/lib/use-narrow-screen";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { EditorStore } from "./store";
import type { SaveState } from "./use-autosave";

/**
 * A phone shows the flow read-only: no drag, connect, drop or settings edits (the draft store refuses them all), and
 * no palette. Returns whether the window is that narrow.
 */
export const usePhoneReadOnly = (draft: EditorStore, canEdit: boolean) => {
  const narrow = useNarrowScreen();
  useEffect(() => draft.getState().setReadOnly(!canEdit || narrow), [draft, canEdit, narrow]);
  return narrow;
};

/** What a deploy or restore reported, until dismissed. */
export const DeployNotice = ({ text, onDismiss }: { text: string; onDismiss: () => void }) => (
  <Notice className="flex items-center justify-between gap-3">
    <span>{text}</span>
    <Button size="sm" variant="ghost" onClick={onDismiss}>
      Dismiss
    </Button>
  </Notice>
);

/** Said on a phone to someone who could edit on a wider screen. */
export const PhoneNotice = () => (
  <Notice>This screen shows the flow read-only. Editing needs a wider screen (768 px or more).</Notice>
);

/** What keeps the draft from being saved or connected: a conflict to reload, a failed save, a refused edge. */
export const DraftAlerts = ({
  saveState,
  saveError,
  refusal,
  onReload,
}: {
  saveState: SaveState;
  saveError: string | null;
  refusal: string | null;
  onReload: () => void;
}) => (
  <>
    {saveState === "conflict" && (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        <span className="flex-1">{saveError}</span>
        <Button size="sm" variant="secondary" onClick={onReload}>
          Reload the draft
        </Button>
      </div>
    )}
    {saveState === "error" && saveError && <ErrorAlert>Could not save the draft: {saveError}</ErrorAlert>}
    {refusal && (
      <p role="status" className="text-xs text-amber-800 dark:text-amber-200">
        Not connected: {refusal}
      </p>
    )}
  </>
);
