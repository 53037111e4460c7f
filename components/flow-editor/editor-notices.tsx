"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { SaveState } from "./use-autosave";

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
