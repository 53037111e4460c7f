"use client";

import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { Graph } from "@/server/flows/graph.schema";
import type { EditorStore } from "./store";

export type SaveState = "saved" | "saving" | "unsaved" | "error" | "conflict";

const DEBOUNCE_MS = 700;

const codeOf = (error: unknown) => (error as { data?: { code?: string } } | null)?.data?.code;

/**
 * Saves the draft a moment after the last edit, naming the version it started from: a save the server refuses as
 * stale (409) stops autosave and the editor offers to reload. Edits made while a save is in flight are saved next.
 */
export const useAutosave = ({
  store,
  projectId,
  name,
  initialVersion,
  enabled,
}: {
  store: EditorStore;
  projectId: string;
  name: string;
  initialVersion: number;
  enabled: boolean;
}) => {
  const trpc = useTRPC();
  const save = useMutation(trpc.dashboard.flows.saveDraft.mutationOptions());
  const edits = useStore(store, (s) => s.edits);
  const version = useRef(initialVersion);
  const savedEdits = useRef(0);
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [state, setState] = useState<SaveState>("saved");
  const [error, setError] = useState<string | null>(null);
  const stopped = useRef(false);
  // A save that finds newer edits when it ends schedules the next one through this ref.
  const again = useRef<() => void>(() => undefined);

  const saveNow = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (inFlight.current) await inFlight.current;
    if (stopped.current) return;
    const at = store.getState().edits;
    if (at === savedEdits.current) return;
    setState("saving");
    const run = (async () => {
      try {
        const result = await save.mutateAsync({
          projectId,
          name,
          graph: store.getState().graph(),
          expectedVersion: version.current,
        });
        version.current = result.draftVersion;
        savedEdits.current = at;
        setError(null);
        setState(store.getState().edits === at ? "saved" : "unsaved");
      } catch (e) {
        if (codeOf(e) === "CONFLICT") {
          stopped.current = true;
          setState("conflict");
        } else setState("error");
        setError((e as Error).message);
      }
    })();
    inFlight.current = run;
    await run;
    inFlight.current = null;
    if (!stopped.current && store.getState().edits !== savedEdits.current) {
      timer.current = setTimeout(() => again.current(), DEBOUNCE_MS);
    }
  }, [store, save, projectId, name]);

  useEffect(() => {
    again.current = () => void saveNow();
  }, [saveNow]);

  useEffect(() => {
    if (!enabled || stopped.current || edits === savedEdits.current) return;
    setState((s) => (s === "saving" ? s : "unsaved"));
    if (timer.current) clearTimeout(timer.current);
    if (!inFlight.current) timer.current = setTimeout(() => void saveNow(), DEBOUNCE_MS);
  }, [edits, enabled, saveNow]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (store.getState().edits !== savedEdits.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [store]);

  /** The server's draft replaces what is on the canvas (after a conflict, a restore, a reload). */
  const adopt = useCallback(
    (graph: Graph, draftVersion: number) => {
      if (timer.current) clearTimeout(timer.current);
      store.getState().load(graph);
      version.current = draftVersion;
      savedEdits.current = store.getState().edits;
      stopped.current = false;
      setError(null);
      setState("saved");
    },
    [store],
  );

  return { state, error, saveNow, adopt, version };
};
