"use client";

import { ErrorAlert } from "@/components/ui/alert";
import type { RunState } from "./use-flow-run";

const STEP_CLASS = {
  error: "rounded bg-red-100 px-1.5 py-0.5 text-[11px] text-red-800 dark:bg-red-950 dark:text-red-200",
  finished:
    "rounded bg-emerald-100 px-1.5 py-0.5 text-[11px] text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  running: "rounded bg-sky-100 px-1.5 py-0.5 text-[11px] text-sky-800 dark:bg-sky-950 dark:text-sky-200",
};

/** The passages the run retrieved, with source, page and score. */
const RetrievedPassages = ({ run }: { run: RunState }) => (
  <div>
    <h3 className="text-xs font-semibold text-muted-foreground uppercase">Retrieved passages ({run.total})</h3>
    {run.items.length === 0 ? (
      <p className="mt-1 text-sm text-muted-foreground">Nothing was retrieved.</p>
    ) : (
      <ol aria-label="Retrieved passages" className="mt-1 max-h-64 space-y-1.5 overflow-auto">
        {run.items.map((item, i) => (
          <li key={item.metadata.chunk_id ?? i} className="rounded-md border border-border px-2.5 py-1.5 text-xs">
            <p className="flex justify-between gap-2 font-medium">
              <span className="truncate">
                {item.metadata.source ?? "source"}
                {item.metadata.page ? `, page ${item.metadata.page}` : ""}
              </span>
              {typeof item.metadata.relevance_score === "number" && (
                <span className="tabular-nums text-muted-foreground">{item.metadata.relevance_score.toFixed(3)}</span>
              )}
            </p>
            <p className="mt-0.5 line-clamp-3 text-muted-foreground">{item.page_content}</p>
          </li>
        ))}
      </ol>
    )}
  </div>
);

/** A run as it happens: each node's event, the streamed answer, then the retrieved passages. */
export const RunResult = ({ run, nameOf }: { run: RunState; nameOf: (nodeId: string) => string }) => {
  const running = run.status === "running";
  return (
    <section aria-label="Run result" className="space-y-3">
      <ol aria-label="Node events" className="flex flex-wrap gap-1">
        {run.steps.map((s) => (
          <li
            key={s.nodeId}
            className={
              s.status === "error"
                ? STEP_CLASS.error
                : s.status === "finished"
                  ? STEP_CLASS.finished
                  : STEP_CLASS.running
            }
          >
            {nameOf(s.nodeId)} {s.status === "finished" ? `✓ ${s.ms ?? 0} ms` : s.status === "error" ? "✕" : "…"}
          </li>
        ))}
      </ol>
      {run.error && <ErrorAlert>{run.error}</ErrorAlert>}
      <div>
        <h3 className="text-xs font-semibold text-muted-foreground uppercase">
          Answer {run.target === "deployed" ? "(deployed revision)" : "(draft)"}
        </h3>
        <div
          aria-label="Answer"
          aria-live="polite"
          // It scrolls when long: reachable by keyboard.
          tabIndex={0}
          aria-busy={running}
          className="mt-1 max-h-48 min-h-12 overflow-auto rounded-md border border-border bg-muted/40 px-3 py-2 text-sm whitespace-pre-wrap"
        >
          {run.answer || (running ? "…" : "No answer")}
        </div>
        {run.model && <p className="mt-1 text-xs text-muted-foreground">Written by {run.model}</p>}
      </div>
      {run.status === "done" && <RetrievedPassages run={run} />}
    </section>
  );
};
