"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useStore } from "zustand";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { EvaluationSelection } from "./evaluation/evaluation-panel";
import type { FlowView } from "./flow-view";
import { createEditorStore, type EditorStore } from "./store";
import { useAutosave } from "./use-autosave";
import { useChecklist } from "./use-checklist";
import { useDeployActions, useRefreshFlow } from "./use-deploy-actions";
import { useFlowRun } from "./use-flow-run";
import { usePanelTab } from "./use-panel-tab";

type Revision = { id: string; number: number };

/** Names for nodes the checklist refers to by id, as the canvas shows them. */
const useNodeNames = (draft: EditorStore) => {
  const nodes = useStore(draft, (s) => s.nodes);
  const problemText = useMemo(() => {
    const names = nodes.map((n) => [n.id, n.data.name] as const);
    return (message: string) =>
      names.reduce((m, [id, nodeName]) => m.replaceAll(`'${id}'`, `“${nodeName}”`).replaceAll(id, nodeName), message);
  }, [nodes]);
  const nameOf = (id: string) => nodes.find((n) => n.id === id)?.data.name ?? id;
  return { problemText, nameOf };
};

/** A revision opened read-only beside the draft: its graph in a store of its own once loaded. */
const useRevisionView = (projectId: string, name: string) => {
  const trpc = useTRPC();
  const [viewing, setViewing] = useState<Revision | null>(null);
  const revision = useQuery({
    ...trpc.dashboard.flows.revision.queryOptions({ projectId, name, revisionId: viewing?.id ?? "" }),
    enabled: !!viewing,
  });
  const viewingId = viewing?.id;
  const revisionStore = useMemo<EditorStore | null>(
    () => (viewingId && revision.data?.id === viewingId ? createEditorStore(revision.data.graph, true) : null),
    [viewingId, revision.data],
  );
  const revisionGraph = viewing && revision.data?.id === viewing.id ? revision.data.graph : null;
  return { viewing, setViewing, revisionStore, revisionGraph };
};

export type EditorProps = { projectId: string; name: string; initial: FlowView; canEdit: boolean };

/** Everything the flow editor holds: the draft, the flow as served, saving, deploys, runs, checks and the panel. */
export const useFlowEditor = ({ projectId, name, initial, canEdit }: EditorProps) => {
  const trpc = useTRPC();
  const [draft] = useState(() => createEditorStore(initial.graph, !canEdit));
  const [deployOpen, setDeployOpen] = useState(false);
  const [description, setDescription] = useState("");
  const [evaluation, setEvaluation] = useState<EvaluationSelection>({ view: null, compare: [] });
  const { viewing, setViewing, revisionStore, revisionGraph } = useRevisionView(projectId, name);
  const refresh = useRefreshFlow(projectId, name);
  const autosave = useAutosave({
    store: draft,
    projectId,
    name,
    initialVersion: initial.draftVersion,
    enabled: canEdit,
  });
  const actions = useDeployActions({ projectId, name, autosave, refresh, onRestored: () => setViewing(null) });
  const flow = useQuery({
    ...trpc.dashboard.flows.get.queryOptions({ projectId, name }),
    refetchInterval: actions.deploy.isPending ? 600 : false,
  });
  const view = flow.data ?? initial;
  useEffect(() => draft.getState().annotate({ results: view.results }), [draft, view.results]);
  const checklist = useChecklist({ store: draft, projectId, name });
  const flowRun = useFlowRun({ store: draft, projectId, name, onFinished: refresh });
  const { problemText, nameOf } = useNodeNames(draft);
  const refusal = useStore(draft, (s) => s.refusal);
  const store = (viewing && revisionStore) || draft;

  const { tab, setTab, pick } = usePanelTab({ draft, shown: store, onPick: () => setViewing(null) });
  const onDeploy = async () => {
    setDeployOpen(false);
    if (await actions.deployDraft(description)) setDescription("");
  };

  const deploying = actions.deploy.isPending;
  const canDeploy =
    canEdit && !!checklist.result?.ok && autosave.state !== "conflict" && autosave.state !== "error" && !deploying;

  return {
    ...{ draft, store, view, autosave, actions, checklist, flowRun, problemText, nameOf, refusal },
    ...{ viewing, setViewing, revisionStore, revisionGraph, tab, setTab, pick, evaluation, setEvaluation },
    ...{ deployOpen, setDeployOpen, description, setDescription, onDeploy, deploying, canDeploy },
  };
};
