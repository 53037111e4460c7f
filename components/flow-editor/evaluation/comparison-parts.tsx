"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fmt, METRICS, MetricValue, type Comparison } from "./metric-format";
import { TableScroll } from "@/components/ui/table-scroll";

export const COLORS = { a: "#2563eb", b: "#f59e0b" };

type Aggregate = NonNullable<Comparison["a"]["aggregates"][string]>;

/** A bar per metric and run. */
export const ComparisonChart = ({
  data,
  nameA,
  nameB,
}: {
  data: Record<string, string | number | null>[];
  nameA: string;
  nameB: string;
}) => (
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
);

const deltaClass = (delta: number | null) =>
  delta === null
    ? ""
    : delta > 0
      ? "text-emerald-700 dark:text-emerald-300"
      : delta < 0
        ? "text-red-700 dark:text-red-300"
        : "";

/** Each metric's mean for both runs and how far B is from A. */
export const ComparedMetrics = ({ aggA, aggB }: { aggA: Aggregate | undefined; aggB: Aggregate | undefined }) => (
  <TableScroll label="Compared metrics table" className="self-start">
    <table aria-label="Compared metrics" className="w-full text-sm">
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
              <td className={`py-1.5 text-right font-mono ${deltaClass(delta)}`}>
                {delta === null ? "—" : `${delta > 0 ? "+" : ""}${delta.toFixed(2)}`}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  </TableScroll>
);

/** Case by case, for two runs of the same test set. */
export const ComparedCases = ({ cases }: { cases: Comparison["cases"] }) => (
  <TableScroll label="Compared cases table" className="max-h-96 overflow-y-auto">
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
        {cases.map((row) => (
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
  </TableScroll>
);
