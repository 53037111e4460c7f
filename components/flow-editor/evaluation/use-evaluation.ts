"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { EvaluationRun } from "./metric-format";
import type { EvaluationSelection } from "./selection";

export const active = (run: EvaluationRun) => run.status === "queued" || run.status === "running";

/** The Evaluation tab's state: test sets, runs (polled while one is under way) and what starts, stops or deletes. */
export const useEvaluation = ({
  projectId,
  name,
  selection,
  onSelect,
}: {
  projectId: string;
  name: string;
  selection: EvaluationSelection;
  onSelect: (next: EvaluationSelection) => void;
}) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [allFlows, setAllFlows] = useState(false);
  const [testSet, setTestSet] = useState("");
  const [target, setTarget] = useState<"draft" | "deployed">("draft");
  const testSets = useQuery(trpc.dashboard.evaluation.testSets.queryOptions({ projectId }));
  const runsInput = { projectId, ...(allFlows ? {} : { flowName: name }) };
  const runs = useQuery({
    ...trpc.dashboard.evaluation.runs.queryOptions(runsInput),
    refetchInterval: (q) => (q.state.data?.some(active) ? 1000 : false),
  });
  // A run that finishes changes the metrics on the flow's llm/response nodes: the draft's results are read again.
  const finished = runs.data?.filter((r) => !active(r)).length ?? 0;
  useEffect(() => {
    if (finished)
      void queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.get.queryKey({ projectId, name }) });
  }, [finished, queryClient, trpc, projectId, name]);
  const start = useMutation(trpc.dashboard.evaluation.start.mutationOptions());
  const cancel = useMutation(trpc.dashboard.evaluation.cancel.mutationOptions());
  const remove = useMutation(trpc.dashboard.evaluation.deleteTestSet.mutationOptions());
  const refreshRuns = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.evaluation.runs.queryKey() });
  const chosenSet = testSet || testSets.data?.[0]?.id || "";

  const onStart = async () => {
    try {
      const run = await start.mutateAsync({ projectId, flowName: name, testSet: chosenSet, target });
      onSelect({ ...selection, view: run.id });
      await refreshRuns();
    } catch {
      // Shown from the mutation's state.
    }
  };
  const onDelete = async (t: { id: string; name: string }) => {
    if (!window.confirm(`Delete the test set ${t.name} and its runs?`)) return;
    await remove.mutateAsync({ projectId, testSet: t.id }).catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: trpc.dashboard.evaluation.testSets.queryKey({ projectId }) });
    await refreshRuns();
  };
  const onCancel = async (runId: string) => {
    await cancel.mutateAsync({ projectId, runId }).catch(() => undefined);
    await refreshRuns();
  };
  const toggleCompare = (id: string) => {
    const picked = selection.compare.includes(id)
      ? selection.compare.filter((x) => x !== id)
      : [...selection.compare, id].slice(-2);
    onSelect({ ...selection, compare: picked });
  };

  return {
    allFlows,
    setAllFlows,
    testSets,
    runs,
    start,
    remove,
    chosenSet,
    setTestSet,
    target,
    setTarget,
    onStart,
    onDelete,
    onCancel,
    toggleCompare,
  };
};

export type EvaluationState = ReturnType<typeof useEvaluation>;
