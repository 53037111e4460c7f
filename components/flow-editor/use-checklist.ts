"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { GraphIssue } from "@/server/flows/validate-graph";
import type { EditorStore } from "./store";

/**
 * The deploy checklist: the server's graph check (the one a deploy runs) over the graph as it is on the canvas,
 * again shortly after every edit. Problems of a node become its badge.
 */
export const useChecklist = ({ store, projectId, name }: { store: EditorStore; projectId: string; name: string }) => {
  const trpc = useTRPC();
  const check = useMutation(trpc.dashboard.flows.check.mutationOptions());
  const edits = useStore(store, (s) => s.edits);
  const [result, setResult] = useState<{ ok: boolean; issues: GraphIssue[] } | null>(null);
  const { mutateAsync } = check;
  // While something is wrong, look again now and then: a source may finish processing without any edit here.
  const [tick, setTick] = useState(0);
  const failing = result ? !result.ok : false;
  useEffect(() => {
    if (!failing) return;
    const timer = setInterval(() => setTick((t) => t + 1), 8000);
    return () => clearInterval(timer);
  }, [failing]);

  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      mutateAsync({ projectId, name, graph: store.getState().graph() })
        .then((r) => {
          if (cancelled) return;
          setResult(r);
          const byNode: Record<string, string[]> = {};
          for (const issue of r.issues) if (issue.nodeId) (byNode[issue.nodeId] ??= []).push(issue.message);
          store.getState().annotate({ issues: byNode });
        })
        .catch(() => undefined);
    }, 350);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [edits, tick, store, projectId, name, mutateAsync]);

  return { result, pending: check.isPending && !result, error: check.error?.message ?? null };
};
