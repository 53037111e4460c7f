"use client";

import { useCallback, useRef, useState } from "react";
import { AnswerEventSchema, type Answer, type Citation } from "@/server/answers/events.schema";
import type { PlaygroundAskInput } from "@/server/answers/playground.schema";
import { sseFrames } from "@/components/lib/sse-frames";

/** One exchange of the playground: the question, the answer as it streams, its citations, and how it ended. */
export type Exchange = {
  question: string;
  text: string;
  citations: Citation[];
  response: Answer | null;
  error: string | null;
};

/** Asks through the dashboard's streaming route and keeps the conversation's exchanges. */
export const useAskStream = (projectId: string) => {
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const update = (fn: (last: Exchange) => Exchange) =>
    setExchanges((all) => [...all.slice(0, -1), fn(all[all.length - 1]!)]);

  const ask = useCallback(
    async (input: Omit<PlaygroundAskInput, "projectId">) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setBusy(true);
      setExchanges((all) => [
        ...(input.reset ? [] : all),
        { question: input.question, text: "", citations: [], response: null, error: null },
      ]);
      try {
        const res = await fetch(`/api/projects/${projectId}/ask`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(input),
          signal: controller.signal,
        });
        if (!res.ok || !res.body) {
          const detail = ((await res.json().catch(() => null)) as { detail?: string } | null)?.detail;
          throw new Error(detail ?? `The request failed (${res.status})`);
        }
        for await (const raw of sseFrames(res.body)) {
          const event = AnswerEventSchema.parse(raw);
          if (event.type === "token") update((e) => ({ ...e, text: e.text + event.text }));
          if (event.type === "citation") update((e) => ({ ...e, citations: [...e.citations, event.citation] }));
          if (event.type === "error") update((e) => ({ ...e, error: event.detail }));
          if (event.type === "done") {
            const response = event.response;
            update((e) => ({ ...e, text: response.answer, citations: response.citations, response }));
          }
        }
      } catch (error) {
        if (!controller.signal.aborted) update((e) => ({ ...e, error: (error as Error).message }));
      } finally {
        if (abort.current === controller) setBusy(false);
      }
    },
    [projectId],
  );

  const clear = useCallback(() => {
    abort.current?.abort();
    setExchanges([]);
    setBusy(false);
  }, []);

  /** Shows a stored conversation's turns (a conversation opened from the list, or again after Back). */
  const load = useCallback((stored: Exchange[]) => {
    abort.current?.abort();
    setExchanges(stored);
    setBusy(false);
  }, []);

  return { exchanges, busy, ask, clear, load };
};
