"use client";

import { useCallback, useRef, useState } from "react";
import type { EditorStore } from "./store";
import { sseFrames } from "@/components/lib/sse-frames";

export type RunItem = {
  page_content: string;
  metadata: { source?: string; page?: number | null; relevance_score?: number | null; chunk_id?: string };
};

export type RunState = {
  status: "idle" | "running" | "done" | "error";
  target: "draft" | "deployed";
  answer: string;
  model: string | null;
  items: RunItem[];
  total: number;
  error: string | null;
  /** Node events as they came: which node, what happened, how long it took. */
  steps: { nodeId: string; status: string; ms?: number; detail?: string }[];
};

const IDLE: RunState = {
  status: "idle",
  target: "draft",
  answer: "",
  model: null,
  items: [],
  total: 0,
  error: null,
  steps: [],
};

/** Runs the draft or the deployed revision through the editor's streaming route; nodes light up as events arrive. */
export const useFlowRun = ({
  store,
  projectId,
  name,
  onFinished,
}: {
  store: EditorStore;
  projectId: string;
  name: string;
  onFinished: () => void;
}) => {
  const [run, setRun] = useState<RunState>(IDLE);
  const abort = useRef<AbortController | null>(null);

  const start = useCallback(
    async (query: string, target: "draft" | "deployed") => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      store.getState().setLights(() => ({}));
      setRun({ ...IDLE, status: "running", target });
      try {
        const res = await fetch(`/api/projects/${projectId}/flows/${encodeURIComponent(name)}/run`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query, target }),
          signal: controller.signal,
        });
        if (!res.ok || !res.body) {
          const detail = ((await res.json().catch(() => null)) as { detail?: string } | null)?.detail;
          throw new Error(detail ?? `The run failed (${res.status})`);
        }
        for await (const frame of sseFrames(res.body)) {
          const event = frame as Record<string, unknown>;
          if (event.type === "node") {
            const nodeId = String(event.node_id);
            const status = String(event.status);
            store.getState().setLights((l) => ({
              ...l,
              [nodeId]: status === "started" ? "running" : status === "error" ? "error" : "done",
            }));
            setRun((r) => ({
              ...r,
              steps: [
                ...r.steps.filter((s) => s.nodeId !== nodeId),
                {
                  nodeId,
                  status,
                  ms: event.elapsed_ms as number | undefined,
                  detail: event.detail as string | undefined,
                },
              ],
            }));
          } else if (event.type === "token") {
            setRun((r) => ({ ...r, answer: r.answer + String(event.text) }));
          } else if (event.type === "error") {
            setRun((r) => ({ ...r, status: "error", error: String(event.detail) }));
          } else if (event.type === "done") {
            const response = event.response as {
              items: RunItem[];
              total: number;
              answer?: string;
              model?: string;
            };
            setRun((r) => ({
              ...r,
              status: "done",
              answer: response.answer ?? r.answer,
              model: response.model ?? null,
              items: response.items,
              total: response.total,
            }));
          }
        }
      } catch (error) {
        if (!controller.signal.aborted) setRun((r) => ({ ...r, status: "error", error: (error as Error).message }));
      } finally {
        setRun((r) => (r.status === "running" ? { ...r, status: "done" } : r));
        onFinished();
      }
    },
    [store, projectId, name, onFinished],
  );

  return { run, start };
};
