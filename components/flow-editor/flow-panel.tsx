"use client";

import type { ReactNode } from "react";
import { Tabs } from "@/components/ui/tabs";
import { Checklist } from "./checklist";
import { ConfigPanel } from "./config-panel";
import { EvaluationPanel, type EvaluationSelection } from "./evaluation/evaluation-panel";
import type { FlowView } from "./flow-view";
import { RevisionsPanel } from "./revisions-panel";
import { RunPanel } from "./run-panel";
import type { useChecklist } from "./use-checklist";
import type { useFlowRun } from "./use-flow-run";

export type Tab = "node" | "checklist" | "run" | "evaluate" | "revisions";
type Checked = ReturnType<typeof useChecklist>;
type Revision = { id: string; number: number };

const count = (n: number, tone: string) => (
  <span className={`ml-1.5 rounded-full px-1.5 py-px text-[11px] font-semibold ${tone}`}>{n}</span>
);

const checkLabel = (checklist: Checked) => (
  <span className="whitespace-nowrap">
    Checklist
    {checklist.result &&
      (checklist.result.ok ? (
        <span aria-label="(ready)" className="ml-1.5 text-emerald-700 dark:text-emerald-400">
          ✓
        </span>
      ) : (
        count(checklist.result.issues.length, "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200")
      ))}
  </span>
);

/** The panel's tabs: a revision being viewed has only its nodes and the revisions list. */
export const panelTabs = (viewing: boolean, checklist: Checked): { value: Tab; label: ReactNode }[] =>
  viewing
    ? [
        { value: "node", label: "Node" },
        { value: "revisions", label: "Revisions" },
      ]
    : [
        { value: "node", label: "Node" },
        { value: "checklist", label: checkLabel(checklist) },
        { value: "run", label: "Run" },
        { value: "evaluate", label: "Evaluate" },
        { value: "revisions", label: "Revisions" },
      ];

/** The side panel: the selected node's settings, the checklist, runs, evaluation and revisions. */
export const FlowPanel = ({
  projectId,
  name,
  view,
  canEdit,
  tabs,
  activeTab,
  onTab,
  problemText,
  checklist,
  onPick,
  flowRun,
  nameOf,
  evaluation,
  onEvaluation,
  viewing,
  restoring,
  onView,
  onRestore,
}: {
  projectId: string;
  name: string;
  view: FlowView;
  canEdit: boolean;
  tabs: { value: Tab; label: ReactNode }[];
  activeTab: Tab;
  onTab: (tab: Tab) => void;
  problemText: (message: string) => string;
  checklist: Checked;
  onPick: (nodeId: string) => void;
  flowRun: ReturnType<typeof useFlowRun>;
  nameOf: (id: string) => string;
  evaluation: EvaluationSelection;
  onEvaluation: (selection: EvaluationSelection) => void;
  viewing: Revision | null;
  restoring: boolean;
  onView: (revision: Revision) => void;
  onRestore: (revision: Revision) => void;
}) => (
  <Tabs label="Flow panel" tabs={tabs} value={activeTab} onChange={onTab}>
    {activeTab === "node" && <ConfigPanel projectId={projectId} problemText={problemText} />}
    {activeTab === "checklist" && (
      <Checklist result={checklist.result} pending={checklist.pending} problemText={problemText} onPick={onPick} />
    )}
    {activeTab === "run" && (
      <RunPanel
        run={flowRun.run}
        onRun={(q, t) => void flowRun.start(q, t)}
        canRun={canEdit}
        deployedRevision={view.activeRevision?.number ?? null}
        url={
          view.url.startsWith("/") && typeof window !== "undefined" ? `${window.location.origin}${view.url}` : view.url
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
        onSelect={onEvaluation}
      />
    )}
    {activeTab === "revisions" && (
      <RevisionsPanel
        projectId={projectId}
        name={name}
        viewing={viewing?.id ?? null}
        canRestore={canEdit}
        restoring={restoring}
        onView={(r) => onView({ id: r.id, number: r.number })}
        onRestore={(r) => onRestore(r)}
      />
    )}
  </Tabs>
);
