"use client";

import "@xyflow/react/dist/style.css";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from "react";
import { useStore } from "zustand";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { ProgressBar } from "@/components/ui/progress-bar";
import { Loading, Spinner } from "@/components/ui/states";
import { Tabs } from "@/components/ui/tabs";
import type { Graph } from "@/server/flows/graph.schema";
import type { AppRouter } from "@/server/trpc/root";
import type { inferRouterOutputs } from "@trpc/server";
import { BuildBudget } from "./build-budget";
import { Canvas } from "./canvas";
import { Checklist } from "./checklist";
import { EvaluationPanel, type EvaluationSelection } from "./evaluation/evaluation-panel";
import { RunComparison } from "./evaluation/run-comparison";
import { RunResults } from "./evaluation/run-results";
import { ConfigPanel } from "./config-panel";
import { FlowStatusBadge } from "./flow-status";
import { Palette } from "./palette";
import { RevisionDiff } from "./revision-diff";
import { RevisionsPanel } from "./revisions-panel";
import { RunPanel } from "./run-panel";
import { createEditorStore, EditorStoreContext, type EditorStore } from "./store";
import { useAutosave, type SaveState } from "./use-autosave";
import { useChecklist } from "./use-checklist";
import { useFlowRun } from "./use-flow-run";

type FlowView = inferRouterOutputs<AppRouter>["dashboard"]["flows"]["get"];
type Tab = "node" | "checklist" | "run" | "evaluate" | "revisions";

const SAVE_TEXT: Record<SaveState, string> = {
  saved: "Saved",
  saving: "Saving…",
  unsaved: "Unsaved changes",
  error: "Not saved",
  conflict: "Not saved: changed elsewhere",
};

const SaveIndicator = ({ state, readOnly }: { state: SaveState; readOnly: boolean }) => (
  <span
    role="status"
    aria-label="Draft state"
    className={`inline-flex items-center gap-1.5 text-xs font-medium ${
      readOnly
        ? "text-muted-foreground"
        : state === "saved"
          ? "text-emerald-700 dark:text-emerald-300"
          : state === "error" || state === "conflict"
            ? "text-destructive"
            : "text-amber-700 dark:text-amber-300"
    }`}
  >
    {state === "saving" && <Spinner className="size-3" />}
    {readOnly ? "Read-only" : SAVE_TEXT[state]}
  </span>
);

export const FlowEditor = ({ projectId, name }: { projectId: string; name: string }) => {
  const trpc = useTRPC();
  const project = useProject(projectId);
  const flow = useQuery(trpc.dashboard.flows.get.queryOptions({ projectId, name }));
  if (project.isPending || flow.isPending) return <Loading>Loading the flow…</Loading>;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  if (flow.isError)
    return (
      <div className="space-y-4">
        <Link href={`/${projectId}/flows`} className="text-sm text-link hover:underline">
          ← All flows
        </Link>
        <ErrorAlert>{flow.error.message}</ErrorAlert>
      </div>
    );
  return (
    <ReactFlowProvider>
      <LoadedEditor projectId={projectId} name={name} initial={flow.data} canEdit={project.can("member")} />
    </ReactFlowProvider>
  );
};

const LoadedEditor = ({
  projectId,
  name,
  initial,
  canEdit,
}: {
  projectId: string;
  name: string;
  initial: FlowView;
  canEdit: boolean;
}) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft] = useState(() => createEditorStore(initial.graph, !canEdit));
  const [tab, setTab] = useState<Tab>("node");
  const [viewing, setViewing] = useState<{ id: string; number: number } | null>(null);
  const [deployOpen, setDeployOpen] = useState(false);
  const [description, setDescription] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const [evaluation, setEvaluation] = useState<EvaluationSelection>({ view: null, compare: [] });
  const { fitView, getNode, getZoom, setCenter } = useReactFlow();

  const deploy = useMutation(trpc.dashboard.flows.deploy.mutationOptions());
  const restore = useMutation(trpc.dashboard.flows.restore.mutationOptions());
  const cancelDeploy = useMutation(trpc.dashboard.flows.cancelDeploy.mutationOptions());
  const flowKey = trpc.dashboard.flows.get.queryKey({ projectId, name });
  const flow = useQuery({
    ...trpc.dashboard.flows.get.queryOptions({ projectId, name }),
    refetchInterval: deploy.isPending ? 600 : false,
  });
  const view = flow.data ?? initial;
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: flowKey });
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.revisions.queryKey({ projectId, name }) });
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.list.queryKey({ projectId }) });
  }, [queryClient, flowKey, trpc, projectId, name]);

  useEffect(() => draft.getState().annotate({ results: view.results }), [draft, view.results]);

  const autosave = useAutosave({
    store: draft,
    projectId,
    name,
    initialVersion: initial.draftVersion,
    enabled: canEdit,
  });
  const checklist = useChecklist({ store: draft, projectId, name });
  const { run, start } = useFlowRun({ store: draft, projectId, name, onFinished: refresh });

  // Problems name nodes by id; the checklist names them as the canvas does.
  const nodes = useStore(draft, (s) => s.nodes);
  const problemText = useMemo(() => {
    const names = nodes.map((n) => [n.id, n.data.name] as const);
    return (message: string) =>
      names.reduce((m, [id, nodeName]) => m.replaceAll(`'${id}'`, `“${nodeName}”`).replaceAll(id, nodeName), message);
  }, [nodes]);
  const nameOf = (id: string) => nodes.find((n) => n.id === id)?.data.name ?? id;

  /** A checklist problem's node: selected, its settings shown, and the canvas centred on it at the same zoom. */
  const pick = (nodeId: string) => {
    setViewing(null);
    draft.getState().select(nodeId);
    setTab("node");
    const node = getNode(nodeId);
    if (!node) return;
    const width = node.measured?.width ?? 240;
    const height = node.measured?.height ?? 80;
    void setCenter(node.position.x + width / 2, node.position.y + height / 2, { zoom: getZoom(), duration: 300 });
  };

  const revision = useQuery({
    ...trpc.dashboard.flows.revision.queryOptions({ projectId, name, revisionId: viewing?.id ?? "" }),
    enabled: !!viewing,
  });
  const viewingId = viewing?.id;
  const revisionStore = useMemo<EditorStore | null>(
    () => (viewingId && revision.data?.id === viewingId ? createEditorStore(revision.data.graph, true) : null),
    [viewingId, revision.data],
  );

  const onDeploy = async () => {
    setDeployOpen(false);
    setNotice(null);
    cancelDeploy.reset();
    await autosave.saveNow();
    try {
      const result = await deploy.mutateAsync({ projectId, name, description: description.trim() || undefined });
      setDescription("");
      setNotice(result.message);
    } catch {
      // The error is shown from the mutation's state.
    }
    refresh();
  };

  const onRestore = async (target: { id: string; number: number }) => {
    setNotice(null);
    await autosave.saveNow();
    try {
      const result = await restore.mutateAsync({
        projectId,
        name,
        revisionId: target.id,
        expectedVersion: autosave.version.current,
      });
      autosave.adopt(result.graph as Graph, result.draftVersion);
      setViewing(null);
      setNotice(`Revision ${target.number} was copied into the draft. Deploy to serve it.`);
      refresh();
    } catch {
      // Shown from the mutation's state.
    }
  };

  const reload = async () => {
    const fresh = await queryClient.fetchQuery({
      ...trpc.dashboard.flows.get.queryOptions({ projectId, name }),
      staleTime: 0,
    });
    autosave.adopt(fresh.graph, fresh.draftVersion);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target.closest("input, textarea, select, [contenteditable]")) return;
    const mod = event.metaKey || event.ctrlKey;
    if (mod && event.key.toLowerCase() === "z") {
      event.preventDefault();
      if (event.shiftKey) draft.getState().redo();
      else draft.getState().undo();
    } else if (mod && event.key.toLowerCase() === "y") {
      event.preventDefault();
      draft.getState().redo();
    } else if (mod && event.key.toLowerCase() === "c") {
      if (draft.getState().copySelection() > 0) event.preventDefault();
    } else if (mod && event.key.toLowerCase() === "v") {
      event.preventDefault();
      draft.getState().paste();
    }
  };

  const history = useStore(draft, (s) => s.history);
  const refusal = useStore(draft, (s) => s.refusal);
  const readOnly = !canEdit;
  const deploying = deploy.isPending;
  const canDeploy =
    canEdit && !!checklist.result?.ok && autosave.state !== "conflict" && autosave.state !== "error" && !deploying;
  const store = (viewing && revisionStore) || draft;

  // Selecting or clicking a node on the canvas opens its settings.
  useEffect(
    () =>
      store.subscribe((s, prev) => {
        if ((s.selectedId && s.selectedId !== prev.selectedId) || s.nodeClicks !== prev.nodeClicks) setTab("node");
      }),
    [store],
  );
  const count = (n: number, tone: string) => (
    <span className={`ml-1.5 rounded-full px-1.5 py-px text-[11px] font-semibold ${tone}`}>{n}</span>
  );
  const checkLabel = (
    <span className="whitespace-nowrap">
      Checklist
      {checklist.result &&
        (checklist.result.ok ? (
          <span aria-label="(ready)" className="ml-1.5 text-emerald-600">
            ✓
          </span>
        ) : (
          count(checklist.result.issues.length, "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200")
        ))}
    </span>
  );
  const tabs: { value: Tab; label: ReactNode }[] = viewing
    ? [
        { value: "node", label: "Node" },
        { value: "revisions", label: "Revisions" },
      ]
    : [
        { value: "node", label: "Node" },
        { value: "checklist", label: checkLabel },
        { value: "run", label: "Run" },
        { value: "evaluate", label: "Evaluate" },
        { value: "revisions", label: "Revisions" },
      ];
  const activeTab = tabs.some((t) => t.value === tab) ? tab : "node";

  return (
    // The editor uses the window's whole width (the dashboard's column is too narrow for a canvas and two panels).
    <div className="mx-[calc(50%-50vw+1.5rem)] space-y-3" onKeyDown={onKeyDown}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Link href={`/${projectId}/flows`} className="text-sm text-link hover:underline">
          Flows
        </Link>
        <span aria-hidden="true" className="text-muted-foreground">
          /
        </span>
        <h1 className="text-xl font-semibold tracking-tight">{name}</h1>
        <FlowStatusBadge status={view.status} />
        {view.activeRevision && (
          <span className="text-xs text-muted-foreground">revision {view.activeRevision.number} serving</span>
        )}
        <SaveIndicator state={autosave.state} readOnly={readOnly} />
        {canEdit && !viewing && (
          <div className="ml-auto flex flex-wrap items-center gap-1.5">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => draft.getState().undo()}
              disabled={!history.past.length}
              title="Undo (Ctrl+Z)"
            >
              Undo
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => draft.getState().redo()}
              disabled={!history.future.length}
              title="Redo (Ctrl+Shift+Z)"
            >
              Redo
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                draft.getState().autoLayout();
                requestAnimationFrame(() => void fitView({ padding: 0.25, maxZoom: 1, duration: 300 }));
              }}
            >
              Auto-layout
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void fitView({ padding: 0.25, maxZoom: 1, duration: 300 })}
            >
              Fit view
            </Button>
            <BuildBudget projectId={projectId} name={name} canEdit={canEdit} />
            <Button
              size="sm"
              onClick={() => setDeployOpen(true)}
              disabled={!canDeploy}
              title={checklist.result?.ok ? "Deploy the draft as a new revision" : "Fix the checklist first"}
            >
              {deploying && <Spinner className="size-3" />} {deploying ? "Deploying…" : "Deploy"}
            </Button>
          </div>
        )}
        {(readOnly || viewing) && (
          <div className="ml-auto">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void fitView({ padding: 0.25, maxZoom: 1, duration: 300 })}
            >
              Fit view
            </Button>
          </div>
        )}
      </div>

      {autosave.state === "conflict" && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <span className="flex-1">{autosave.error}</span>
          <Button size="sm" variant="secondary" onClick={() => void reload()}>
            Reload the draft
          </Button>
        </div>
      )}
      {autosave.state === "error" && autosave.error && (
        <ErrorAlert>Could not save the draft: {autosave.error}</ErrorAlert>
      )}
      {refusal && !viewing && (
        <p role="status" className="text-xs text-amber-800 dark:text-amber-200">
          Not connected: {refusal}
        </p>
      )}
      {deploying && (
        <div
          role="status"
          aria-label="Deploy progress"
          className="space-y-1 rounded-md border border-border bg-card px-3 py-2"
        >
          <div className="flex items-center gap-3">
            <p className="flex-1 text-sm">
              Deploying{view.latestDeploy?.status === "building" ? ` revision ${view.latestDeploy.number}` : ""}:{" "}
              <span className="text-muted-foreground">{view.latestDeploy?.step ?? "queued"}</span>
            </p>
            {canEdit && (
              <Button
                size="sm"
                variant="secondary"
                disabled={cancelDeploy.isPending || cancelDeploy.isSuccess}
                title="Stop at the next step; the serving revision stays as it is"
                onClick={() => cancelDeploy.mutate({ projectId, name })}
              >
                {cancelDeploy.isSuccess ? "Cancelling…" : "Cancel deploy"}
              </Button>
            )}
          </div>
          <ProgressBar
            label="Deploy"
            value={view.latestDeploy?.status === "building" ? view.latestDeploy.progress : 2}
          />
        </div>
      )}
      {deploy.isError && <ErrorAlert>{deploy.error.message}</ErrorAlert>}
      {restore.isError && <ErrorAlert>{restore.error.message}</ErrorAlert>}
      {notice && <Notice>{notice}</Notice>}
      {viewing && (
        <Notice className="flex flex-wrap items-center gap-2">
          <span className="flex-1">Viewing revision {viewing.number}, read-only. The draft is unchanged.</span>
          <Button size="sm" variant="secondary" onClick={() => setViewing(null)}>
            Back to the draft
          </Button>
          {canEdit && (
            <Button size="sm" variant="secondary" onClick={() => void onRestore(viewing)} disabled={restore.isPending}>
              Restore into draft
            </Button>
          )}
        </Notice>
      )}
      {viewing && revision.data?.id === viewing.id && (
        <RevisionDiff draft={draft.getState().graph()} revision={revision.data.graph} number={viewing.number} />
      )}

      <EditorStoreContext.Provider value={store}>
        <div
          className={`grid h-[calc(100vh-15rem)] min-h-[560px] gap-3 ${
            canEdit && !viewing ? "grid-cols-[10.5rem_minmax(0,1fr)_23rem]" : "grid-cols-[minmax(0,1fr)_23rem]"
          }`}
        >
          {canEdit && !viewing && (
            <Card className="overflow-hidden">
              <Palette />
            </Card>
          )}
          <Card className="overflow-hidden" label="Canvas">
            {viewing && !revisionStore ? (
              <Loading>Loading revision {viewing.number}…</Loading>
            ) : (
              <Canvas key={viewing?.id ?? "draft"} label={viewing ? `Revision ${viewing.number}` : "Flow canvas"} />
            )}
          </Card>
          <Card className="flex min-h-0 flex-col overflow-hidden" label="Flow panel">
            <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
              <Tabs label="Flow panel" tabs={tabs} value={activeTab} onChange={setTab}>
                {activeTab === "node" && <ConfigPanel projectId={projectId} problemText={problemText} />}
                {activeTab === "checklist" && (
                  <Checklist
                    result={checklist.result}
                    pending={checklist.pending}
                    problemText={problemText}
                    onPick={pick}
                  />
                )}
                {activeTab === "run" && (
                  <RunPanel
                    run={run}
                    onRun={(q, t) => void start(q, t)}
                    canRun={canEdit}
                    deployedRevision={view.activeRevision?.number ?? null}
                    url={
                      view.url.startsWith("/") && typeof window !== "undefined"
                        ? `${window.location.origin}${view.url}`
                        : view.url
                    }
                    nameOf={nameOf}
                  />
                )}
                {activeTab === "evaluate" && (
                  <EvaluationPanel
                    projectId={projectId}
                    name={name}
                    canEdit={canEdit}
                    deployedRevision={view.activeRevision?.number ?? null}
                    selection={evaluation}
                    onSelect={setEvaluation}
                  />
                )}
                {activeTab === "revisions" && (
                  <RevisionsPanel
                    projectId={projectId}
                    name={name}
                    viewing={viewing?.id ?? null}
                    canRestore={canEdit}
                    restoring={restore.isPending}
                    onView={(r) => setViewing({ id: r.id, number: r.number })}
                    onRestore={(r) => void onRestore(r)}
                  />
                )}
              </Tabs>
            </div>
          </Card>
        </div>
      </EditorStoreContext.Provider>

      {/* Evaluation results need the window's width: they open under the canvas. */}
      {activeTab === "evaluate" && evaluation.compare.length === 2 && (
        <RunComparison
          projectId={projectId}
          a={evaluation.compare[0]!}
          b={evaluation.compare[1]!}
          onClose={() => setEvaluation({ ...evaluation, compare: [] })}
        />
      )}
      {activeTab === "evaluate" && evaluation.view && (
        <RunResults
          key={evaluation.view}
          projectId={projectId}
          runId={evaluation.view}
          onClose={() => setEvaluation({ ...evaluation, view: null })}
        />
      )}

      <Dialog open={deployOpen} onClose={() => setDeployOpen(false)} title={`Deploy ${name}`}>
        <form
          aria-label="Deploy"
          onSubmit={(e) => {
            e.preventDefault();
            void onDeploy();
          }}
          className="space-y-4"
        >
          <p className="text-sm text-muted-foreground">
            The draft becomes a new revision and takes all of the flow’s traffic once it is built. The current revision
            keeps serving until then.
          </p>
          <Field label="Description" hint="Optional: what this revision is for (kept with the revision)">
            {(p) => <Textarea {...p} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setDeployOpen(false)}>
              Cancel
            </Button>
            <Button type="submit">Deploy now</Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
};
