"use client";

import { count } from "@/components/lib/count";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Loading } from "@/components/ui/states";
import { fmt, FORM_TEXT, METRICS, MetricValue, STATUS_TONE, type CaseRow, type RunPage } from "./metric-format";
import { TableScroll } from "@/components/ui/table-scroll";

const PAGE_SIZE = 20;

/** Per-node aggregates: the mean of each metric over its cases, how many had a value, and why the others did not. */
export const NodeAggregates = ({ run }: { run: RunPage["run"] }) => {
  const nodes = Object.entries(run.aggregates);
  if (!nodes.length) return <p className="text-sm text-muted-foreground">No aggregates yet.</p>;
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {nodes.map(([nodeId, agg]) => (
        <div
          key={nodeId}
          aria-label={`Aggregates of ${run.nodeNames[nodeId] ?? nodeId}`}
          className="rounded-md border border-border p-3"
        >
          <p className="text-sm font-semibold">
            {run.nodeNames[nodeId] ?? nodeId}{" "}
            <span className="font-normal text-muted-foreground">
              · {count(agg.cases, "case")}
              {agg.errors ? ` · ${agg.errors} failed` : ""}
            </span>
          </p>
          <dl className="mt-2 grid grid-cols-5 gap-2">
            {METRICS.map((m) => {
              const a = agg.metrics[m.key];
              if (!a) return null;
              return (
                <div key={m.key} title={a.reason ? `${a.nulls} without a value: ${a.reason}` : undefined}>
                  <dt className="text-[11px] text-muted-foreground">{m.label}</dt>
                  <dd className="font-mono text-lg tabular-nums">{fmt(a.mean)}</dd>
                  <dd className="text-[11px] text-muted-foreground">
                    n={a.n}
                    {a.nulls ? ` · ${a.nulls} —` : ""}
                  </dd>
                </div>
              );
            })}
          </dl>
        </div>
      ))}
    </div>
  );
};

const CaseDetails = ({ row }: { row: CaseRow }) => (
  <div className="grid gap-4 text-xs md:grid-cols-2">
    <div className="space-y-2">
      {row.expectedAnswer && (
        <p>
          <span className="font-semibold">Expected:</span> {row.expectedAnswer}
        </p>
      )}
      <p>
        <span className="font-semibold">Answer:</span> {row.answer ?? "—"}
      </p>
      {row.error && <p className="text-destructive">The flow failed: {row.error}</p>}
      <ul className="space-y-1">
        {METRICS.map((m) => {
          const cell = row.metrics[m.key];
          if (!cell) return null;
          return (
            <li key={m.key}>
              <span className="font-semibold">{m.label}</span> <MetricValue cell={cell} />{" "}
              <span className="text-muted-foreground">
                ({FORM_TEXT[cell.form] ?? cell.form}) {cell.reason}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
    <ol className="space-y-1.5" aria-label="Retrieved passages">
      {row.retrieved.map((r, i) => (
        <li key={r.chunkId} className="rounded border border-border px-2 py-1">
          <span className="font-semibold">
            [{i + 1}] {r.fileName}
            {r.page ? ` p.${r.page}` : ""}
          </span>{" "}
          <span className="text-muted-foreground">score {r.score.toFixed(3)}</span>
          <p className="mt-0.5 line-clamp-3">{r.text}</p>
        </li>
      ))}
      {!row.retrieved.length && <li className="text-muted-foreground">Nothing was retrieved.</li>}
    </ol>
  </div>
);

/**
 * A case's row; clicked, it opens a row below with the case's passages and reasons. The question is the row's button
 * (a table row cannot carry aria-expanded): keyboards reach it, and its click reaches the row.
 */
const EvaluationCase = ({
  row,
  nodeName,
  open,
  setOpen,
}: {
  row: CaseRow;
  /** Shown in a column of its own when the run evaluated several nodes. */
  nodeName: string | null;
  open: string | null;
  setOpen: (key: string | null) => void;
}) => {
  const key = `${row.position}:${row.nodeId}`;
  const several = nodeName !== null;
  return (
    <Fragment>
      <tr
        className="cursor-pointer border-b border-border/60 align-top hover:bg-muted/50"
        onClick={() => setOpen(open === key ? null : key)}
      >
        <td className="px-2 py-1.5 text-muted-foreground">{row.position + 1}</td>
        <td className="max-w-[22rem] px-2 py-1.5">
          <button
            type="button"
            aria-expanded={open === key}
            className="text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            {row.question}
          </button>
        </td>
        {several && <td className="px-2 py-1.5 text-xs">{nodeName}</td>}
        <td className="max-w-[28rem] px-2 py-1.5 text-muted-foreground">
          <span className="line-clamp-2">{row.error ? `Failed: ${row.error}` : (row.answer ?? "—")}</span>
        </td>
        {METRICS.map((m) => (
          <td key={m.key} className="px-2 py-1.5 text-right">
            <MetricValue cell={row.metrics[m.key]} />
          </td>
        ))}
      </tr>
      {open === key && (
        <tr className="border-b border-border bg-muted/30">
          <td colSpan={METRICS.length + (several ? 4 : 3)} className="px-3 py-3">
            <CaseDetails row={row} />
          </td>
        </tr>
      )}
    </Fragment>
  );
};

/** One run: its aggregates and its per-case table, a page at a time; a row opens to its passages and reasons. */
export const RunResults = ({
  projectId,
  runId,
  onClose,
}: {
  projectId: string;
  runId: string;
  onClose: () => void;
}) => {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const query = useQuery({
    ...trpc.dashboard.evaluation.run.queryOptions({ projectId, runId, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (["queued", "running"].includes(q.state.data?.run.status ?? "") ? 1500 : false),
  });
  if (query.isPending) return <Loading>Loading the run…</Loading>;
  if (query.isError) return <ErrorAlert>{query.error.message}</ErrorAlert>;
  const { run, cases, totalPages } = query.data;
  const several = new Set(cases.map((c) => c.nodeId)).size > 1;
  return (
    <Card label="Evaluation results" className="space-y-4 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold">
          {run.flowName} · {run.label}
        </h2>
        <Badge tone={STATUS_TONE[run.status] ?? "neutral"}>{run.status}</Badge>
        <span className="text-xs text-muted-foreground">
          {run.testSetName} · {run.doneCases}/{count(run.totalCases, "case")} ·{" "}
          {run.judgeModel ? `judged by ${run.judgeModel}` : "no chat model configured to judge"}
        </span>
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onClose}>
          Close
        </Button>
      </div>
      <NodeAggregates run={run} />
      <TableScroll label="Evaluation cases table">
        <table aria-label="Evaluation cases" className="w-full text-left text-sm">
          <thead className="border-b border-border text-xs text-muted-foreground">
            <tr>
              <th className="px-2 py-1.5">#</th>
              <th className="px-2 py-1.5">Question</th>
              {several && <th className="px-2 py-1.5">Node</th>}
              <th className="px-2 py-1.5">Answer</th>
              {METRICS.map((m) => (
                <th key={m.key} className="px-2 py-1.5 text-right" title={m.label}>
                  {m.short}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {cases.map((row) => (
              <EvaluationCase
                key={`${row.position}:${row.nodeId}`}
                row={row}
                nodeName={several ? (run.nodeNames[row.nodeId] ?? row.nodeId) : null}
                open={open}
                setOpen={setOpen}
              />
            ))}
            {!cases.length && (
              <tr>
                <td colSpan={METRICS.length + 3} className="px-2 py-4 text-center text-muted-foreground">
                  {["queued", "running"].includes(run.status) ? "The first cases are being evaluated…" : "No cases."}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </TableScroll>
      {totalPages > 1 && (
        <div className="flex items-center justify-end gap-2 text-sm">
          <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span className="text-muted-foreground">
            Page {page} of {totalPages}
          </span>
          <Button size="sm" variant="secondary" disabled={page >= totalPages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </Card>
  );
};
