"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Loading } from "@/components/ui/states";
import { COLORS, ComparedCases, ComparedMetrics, ComparisonChart } from "./comparison-parts";
import { METRICS, runLabel, type Comparison } from "./metric-format";

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
        <ComparisonChart data={data} nameA={nameA} nameB={nameB} />
        <ComparedMetrics aggA={aggA} aggB={aggB} />
      </div>
      {c.sameTestSet ? (
        <ComparedCases cases={c.cases} />
      ) : (
        <p className="text-xs text-muted-foreground">The runs used different test sets: compared by aggregates only.</p>
      )}
    </Card>
  );
};
