"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/input";
import { Spinner } from "@/components/ui/states";
import type { RunState } from "./use-flow-run";

/** Ask the draft (a simulation) or the deployed revision; the answer streams in, the passages follow. */
export const RunPanel = ({
  run,
  onRun,
  canRun,
  deployedRevision,
  url,
  nameOf,
}: {
  run: RunState;
  onRun: (query: string, target: "draft" | "deployed") => void;
  canRun: boolean;
  deployedRevision: number | null;
  url: string;
  nameOf: (nodeId: string) => string;
}) => {
  const [query, setQuery] = useState("");
  const [target, setTarget] = useState<"draft" | "deployed">("draft");
  const running = run.status === "running";
  const curl = [
    `curl -N -H "Authorization: Bearer $QUARRY_TOKEN" -H 'Content-Type: application/json' \\`,
    `  -d '${JSON.stringify({ query: query.trim() || "What changed?", stream: true }).replace(/'/g, "'\\''")}' \\`,
    `  ${url}`,
  ].join("\n");
  return (
    <div className="space-y-4">
      {canRun ? (
        <form
          aria-label="Run the flow"
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (query.trim()) onRun(query.trim(), target);
          }}
        >
          <Field label="Run">
            {(p) => (
              <Select {...p} value={target} onChange={(e) => setTarget(e.target.value as "draft" | "deployed")}>
                <option value="draft">The draft (simulation)</option>
                <option value="deployed" disabled={deployedRevision === null}>
                  {deployedRevision === null ? "Deployed revision (none yet)" : `Deployed revision ${deployedRevision}`}
                </option>
              </Select>
            )}
          </Field>
          <Field label="Question">
            {(p) => (
              <Textarea
                {...p}
                rows={2}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && !e.shiftKey) {
                    e.preventDefault();
                    e.currentTarget.form?.requestSubmit();
                  }
                }}
              />
            )}
          </Field>
          <Button type="submit" disabled={running || !query.trim()}>
            {running && <Spinner />} {running ? "Running…" : "Run"}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">Runs need the member role; viewers read the flow.</p>
      )}

      {run.status !== "idle" && (
        <section aria-label="Run result" className="space-y-3">
          <ol aria-label="Node events" className="flex flex-wrap gap-1">
            {run.steps.map((s) => (
              <li
                key={s.nodeId}
                className={
                  s.status === "error"
                    ? "rounded bg-red-100 px-1.5 py-0.5 text-[11px] text-red-800 dark:bg-red-950 dark:text-red-200"
                    : s.status === "finished"
                      ? "rounded bg-emerald-100 px-1.5 py-0.5 text-[11px] text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
                      : "rounded bg-sky-100 px-1.5 py-0.5 text-[11px] text-sky-800 dark:bg-sky-950 dark:text-sky-200"
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
              aria-busy={running}
              className="mt-1 max-h-48 min-h-12 overflow-auto rounded-md border border-border bg-muted/40 px-3 py-2 text-sm whitespace-pre-wrap"
            >
              {run.answer || (running ? "…" : "No answer")}
            </div>
            {run.model && <p className="mt-1 text-xs text-muted-foreground">Written by {run.model}</p>}
          </div>
          {run.status === "done" && (
            <div>
              <h3 className="text-xs font-semibold text-muted-foreground uppercase">
                Retrieved passages ({run.total})
              </h3>
              {run.items.length === 0 ? (
                <p className="mt-1 text-sm text-muted-foreground">Nothing was retrieved.</p>
              ) : (
                <ol aria-label="Retrieved passages" className="mt-1 max-h-64 space-y-1.5 overflow-auto">
                  {run.items.map((item, i) => (
                    <li
                      key={item.metadata.chunk_id ?? i}
                      className="rounded-md border border-border px-2.5 py-1.5 text-xs"
                    >
                      <p className="flex justify-between gap-2 font-medium">
                        <span className="truncate">
                          {item.metadata.source ?? "source"}
                          {item.metadata.page ? `, page ${item.metadata.page}` : ""}
                        </span>
                        {typeof item.metadata.relevance_score === "number" && (
                          <span className="tabular-nums text-muted-foreground">
                            {item.metadata.relevance_score.toFixed(3)}
                          </span>
                        )}
                      </p>
                      <p className="mt-0.5 line-clamp-3 text-muted-foreground">{item.page_content}</p>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          )}
        </section>
      )}

      <section aria-label="Public endpoint" className="space-y-2 border-t border-border pt-3">
        <h3 className="text-xs font-semibold text-muted-foreground uppercase">Public endpoint</h3>
        <div className="flex items-center gap-2">
          <code aria-label="Flow URL" className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1 text-xs">
            {url}
          </code>
          <CopyButton text={url} label="Copy URL" />
        </div>
        {deployedRevision === null && (
          <p className="text-xs text-muted-foreground">Answers once the flow is deployed.</p>
        )}
        <pre
          aria-label="Example request"
          className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 text-[11px] leading-relaxed text-slate-100"
        >
          {curl}
        </pre>
        <CopyButton text={curl} label="Copy curl" />
      </section>
    </div>
  );
};
