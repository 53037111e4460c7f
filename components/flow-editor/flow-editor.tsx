"use client";

import "@xyflow/react/dist/style.css";
import { useQuery } from "@tanstack/react-query";
import { ReactFlowProvider } from "@xyflow/react";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProject } from "@/components/sources/use-project";
import { ErrorAlert } from "@/components/ui/alert";
import { Loading } from "@/components/ui/states";
import { DeployDialog } from "./deploy-dialog";
import { DeployProgress } from "./deploy-progress";
import { EditorHeader } from "./editor-header";
import { EditorWorkspace, EvaluationResults, RevisionNotice } from "./editor-layout";
import { DeployNotice, DraftAlerts, PhoneNotice, usePhoneReadOnly } from "./editor-notices";
import { FlowPanel, panelTabs } from "./flow-panel";
import { editorKeys } from "./use-editor-keys";
import { useFlowEditor, type EditorProps } from "./use-flow-editor";

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

const LoadedEditor = ({ projectId, name, initial, canEdit }: EditorProps) => {
  const e = useFlowEditor({ projectId, name, initial, canEdit });
  const { draft, view, autosave, actions, checklist, viewing, setViewing, tab, setTab, evaluation, setEvaluation } = e;
  const tabs = panelTabs(!!viewing, checklist);
  const activeTab = tabs.some((t) => t.value === tab) ? tab : "node";
  const narrow = usePhoneReadOnly(draft, canEdit);

  return (
    // The editor uses the window's whole width (the dashboard's column is too narrow for a canvas and two panels).
    <div className="space-y-3 md:mx-[calc(50%-50vw+1.5rem)]" onKeyDown={editorKeys(draft)}>
      <EditorHeader
        projectId={projectId}
        name={name}
        view={view}
        draft={draft}
        saveState={autosave.state}
        canEdit={canEdit}
        viewingRevision={!!viewing}
        canvasReadOnly={narrow}
        canDeploy={e.canDeploy}
        deploying={e.deploying}
        checklistOk={!!checklist.result?.ok}
        onDeploy={() => e.setDeployOpen(true)}
      />
      <DraftAlerts
        saveState={autosave.state}
        saveError={autosave.error}
        refusal={viewing ? null : e.refusal}
        onReload={() => void actions.reload()}
      />
      {e.deploying && (
        <DeployProgress
          view={view}
          draft={draft}
          canCancel={canEdit}
          cancel={actions.cancelDeploy}
          onCancel={() => actions.cancelDeploy.mutate({ projectId, name })}
        />
      )}
      {actions.deploy.isError && <ErrorAlert>{actions.deploy.error.message}</ErrorAlert>}
      {actions.restore.isError && <ErrorAlert>{actions.restore.error.message}</ErrorAlert>}
      {actions.notice && <DeployNotice text={actions.notice} onDismiss={actions.dismissNotice} />}
      {narrow && canEdit && <PhoneNotice />}
      {viewing && (
        <RevisionNotice
          viewing={viewing}
          draft={draft}
          revisionGraph={e.revisionGraph}
          canRestore={canEdit}
          restoring={actions.restore.isPending}
          onBack={() => setViewing(null)}
          onRestore={() => void actions.restoreRevision(viewing)}
        />
      )}
      <EditorWorkspace
        store={e.store}
        withPalette={canEdit && !viewing && !narrow}
        viewing={viewing}
        loadingRevision={!e.revisionStore}
        panel={
          <FlowPanel
            projectId={projectId}
            name={name}
            view={view}
            canEdit={canEdit}
            tabs={tabs}
            activeTab={activeTab}
            onTab={setTab}
            problemText={e.problemText}
            checklist={checklist}
            onPick={e.pick}
            flowRun={e.flowRun}
            nameOf={e.nameOf}
            evaluation={evaluation}
            onEvaluation={setEvaluation}
            viewing={viewing}
            restoring={actions.restore.isPending}
            onView={setViewing}
            onRestore={(r) => void actions.restoreRevision(r)}
          />
        }
      />
      {activeTab === "evaluate" && (
        <EvaluationResults projectId={projectId} evaluation={evaluation} onChange={setEvaluation} />
      )}
      <DeployDialog
        name={name}
        open={e.deployOpen}
        description={e.description}
        onDescription={e.setDescription}
        onClose={() => e.setDeployOpen(false)}
        onDeploy={() => void e.onDeploy()}
      />
    </div>
  );
};
