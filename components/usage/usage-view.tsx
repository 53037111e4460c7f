"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { ModelPrices } from "./model-prices";
import { causeLabel, formatCost, ModelLabel, UsageTable, type Usage } from "./usage-tables";

const RANGES = [7, 30, 90] as const;

const Summary = ({ usage }: { usage: Usage }) => {
  const figures = [
    ["Calls", usage.totals.calls.toLocaleString("en-US")],
    ["Tokens in", usage.totals.tokensIn.toLocaleString("en-US")],
    ["Tokens out", usage.totals.tokensOut.toLocaleString("en-US")],
    ["Errors", usage.totals.errors.toLocaleString("en-US")],
    ["Cost", formatCost(usage.totals.cost)],
  ];
  return (
    <dl aria-label="Totals" className="grid grid-cols-2 gap-4 sm:grid-cols-5">
      {figures.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-border bg-card px-4 py-3">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
};

const Breakdowns = ({ usage }: { usage: Usage }) => (
  <>
    <Card label="By cause">
      <CardHeader title="By cause" description="What made Quarry call a model." />
      <UsageTable
        caption="Usage by cause"
        first="Cause"
        rows={usage.byCause}
        keyOf={(r) => r.cause}
        label={(r) => causeLabel(r.cause)}
      />
    </Card>
    <Card label="By model">
      <CardHeader title="By model" />
      <UsageTable
        caption="Usage by model"
        first="Model"
        rows={usage.byModel}
        keyOf={(r) => `${r.model}/${r.capability}`}
        label={(r) => <ModelLabel row={r} />}
      />
    </Card>
    <Card label="By day">
      <CardHeader title="By day" description="UTC days with calls." />
      <UsageTable caption="Usage by day" first="Day" rows={usage.byDay} keyOf={(r) => r.day} label={(r) => r.day} />
    </Card>
  </>
);

/**
 * Every call to a remote model this project made: totals, then by cause, model and day. Local methods (the local
 * embedder and reranker, the extractive answerer) use no model and are not listed. Admins enter prices below.
 */
export const UsageView = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const project = useProject(projectId);
  const [days, setDays] = useState<number>(30);
  const canRead = project.can("member");
  const usage = useQuery(trpc.dashboard.usage.summary.queryOptions({ projectId, days }, { enabled: canRead }));

  if (project.isPending) return <Loading />;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  if (!canRead)
    return <ErrorAlert>Usage is shown to the team&apos;s members; your role is {project.data.role}.</ErrorAlert>;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Usage</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Calls to remote models, with the tokens their providers reported (~ marks estimates where one reported
            none). Local methods use no model and are not counted.
          </p>
        </div>
        <Select aria-label="Period" value={days} onChange={(e) => setDays(Number(e.target.value))} className="h-9 w-40">
          {RANGES.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </Select>
      </div>
      {usage.isPending && <Loading />}
      {usage.isError && <ErrorAlert>{usage.error.message}</ErrorAlert>}
      {usage.data && <Summary usage={usage.data} />}
      {usage.data?.totals.calls === 0 && (
        <EmptyState title="No model calls in this period">
          Calls appear here once a chat, embedding, rerank, vision or speech model is configured and used.
        </EmptyState>
      )}
      {usage.data && usage.data.totals.calls > 0 && <Breakdowns usage={usage.data} />}
      {usage.data && project.can("admin") && <ModelPrices projectId={projectId} usage={usage.data} />}
    </div>
  );
};
