"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Loading } from "@/components/ui/states";
import { fmt, METRICS, MetricValue, runLabel, type Comparison } from "./metric-format";

const COLORS = { a: "#2563eb", b: "#f59e0b" };

const side = (c: Comparison["a"]) => (c.node ? c.aggregates[c.node] : undefined);

/** Two runs side by side (two revisions, or two flows): a bar per metric and run, the figures, and each case. */
export const RunComparison = ({
  projectId,
  a,
  b,
  onClose,
}: {
  projectId: string;
  a: string;
  b: string;
  onClose: () => void;
}) => {
  const trpc = useTRPC();
  const query = useQuery(trpc.dashboard.evaluation.compare.queryOptions({ projectId, a, b }));
  if (query.isPending) return <Loading>Comparing…</Loading>;
  if (query.isError) return <ErrorAlert>{query.error.message}</ErrorAlert>;
  const c = query.data;
  const crossFlow = c.a.flowName !== c.b.flowName;
  const nameA = `A: ${runLabel(c.a, crossFlow)}`;
  const nameB = `B: ${runLabel(c.b, crossFlow)}`;
  const [aggA, aggB] = [side(c.a), side(c.b)];
  const data = METRICS.filter((m) => aggA?.metrics[m.key] || aggB?.metrics[m.key]).map((m) => ({
    metric: m.label,
    [nameA]: aggA?.metrics[m.key]?.mean ?? null,
    [nameB]: aggB?.metrics[m.key]?.mean ?? null,
  }));
  return (
    <Card label="Evaluation comparison" className="space-y-4 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold">Comparison</h2>
        <span className="text-xs text-muted-foreground">
          <span style={{ color: COLORS.a }}>■</span> {nameA} ({c.a.testSetName}) ·{" "}
          <span style={{ color: COLORS.b }}>■</span> {nameB} ({c.b.testSetName})
        </span>
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div role="img" aria-label="Metrics of both runs" className="h-64">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="currentColor" strokeOpacity={0.15} />
              <XAxis dataKey="metric" tick={{ fontSize: 11 }} />
              <YAxis domain={[0, 1]} tick={{ fontSize: 11 }} />
              <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : "—")} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey={nameA} fill={COLORS.a} radius={[3, 3, 0, 0]} isAnimationActive={false} />
              <Bar dataKey={nameB} fill={COLORS.b} radius={[3, 3, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <table aria-label="Compared metrics" className="w-full self-start text-sm">
          <thead className="border-b border-border text-xs text-muted-foreground">
            <tr>
              <th className="py-1.5 text-left">Metric</th>
              <th className="py-1.5 text-right">A</th>
              <th className="py-1.5 text-right">B</th>
              <th className="py-1.5 text-right">B − A</th>
            </tr>
          </thead>
          <tbody>
            {METRICS.map((m) => {
              const [x, y] = [aggA?.metrics[m.key], aggB?.metrics[m.key]];
              if (!x && !y) return null;
              const delta = typeof x?.mean === "number" && typeof y?.mean === "number" ? y.mean - x.mean : null;
              return (
                <tr key={m.key} className="border-b border-border/60">
                  <td className="py-1.5">{m.label}</td>
                  <td className="py-1.5 text-right font-mono" title={x?.reason ?? undefined}>
                    {fmt(x?.mean)}
                  </td>
                  <td className="py-1.5 text-right font-mono" title={y?.reason ?? undefined}>
                    {fmt(y?.mean)}
                  </td>
                  <td
                    className={`py-1.5 text-right font-mono ${
                      delta === null
                        ? ""
                        : delta > 0
                          ? "text-emerald-700 dark:text-emerald-300"
                          : delta < 0
                            ? "text-red-700 dark:text-red-300"
                            : ""
                    }`}
                  >
                    {delta === null ? "—" : `${delta > 0 ? "+" : ""}${delta.toFixed(2)}`}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {c.sameTestSet ? (
        <div className="max-h-96 overflow-auto">
          <table aria-label="Compared cases" className="w-full text-left text-sm">
            <thead className="sticky top-0 border-b border-border bg-card text-xs text-muted-foreground">
              <tr>
                <th className="px-2 py-1.5">#</th>
                <th className="px-2 py-1.5">Question</th>
                {METRICS.slice(0, 4).map((m) => (
                  <th key={m.key} className="px-2 py-1.5 text-right" title={m.label}>
                    {m.short} A / B
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {c.cases.map((row) => (
                <tr key={row.position} className="border-b border-border/60">
                  <td className="px-2 py-1.5 text-muted-foreground">{row.position + 1}</td>
                  <td className="max-w-[28rem] px-2 py-1.5">{row.question}</td>
                  {METRICS.slice(0, 4).map((m) => (
                    <td key={m.key} className="px-2 py-1.5 text-right">
                      <MetricValue cell={row.a[m.key]} /> / <MetricValue cell={row.b?.[m.key]} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">The runs used different test sets: compared by aggregates only.</p>
      )}
    </Card>
  );
};
