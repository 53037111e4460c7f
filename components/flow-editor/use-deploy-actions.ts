import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { Graph } from "@/server/flows/graph.schema";
import type { useAutosave } from "./use-autosave";

/** How long a deploy or restore outcome stays on screen. */
const NOTICE_MS = 8000;

type Autosave = ReturnType<typeof useAutosave>;
type Revision = { id: string; number: number };

/** Invalidates what a deploy, a restore or a run changes: the flow, its revisions and the flows list. */
export const useRefreshFlow = (projectId: string, name: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.get.queryKey({ projectId, name }) });
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.revisions.queryKey({ projectId, name }) });
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.list.queryKey({ projectId }) });
  }, [queryClient, trpc, projectId, name]);
};

/**
 * Deploy, cancel, restore a revision into the draft, and reload a draft changed elsewhere. Each saves the draft
 * first; errors are shown from the mutations' state, outcomes as a notice.
 */
export const useDeployActions = ({
  projectId,
  name,
  autosave,
  refresh,
  onRestored,
}: {
  projectId: string;
  name: string;
  autosave: Autosave;
  refresh: () => void;
  onRestored: () => void;
}) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  // An outcome ("deployed successfully") is news for a moment: it goes after a few seconds, or on Dismiss, instead
  // of staying above the canvas for the rest of the session.
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const deploy = useMutation(trpc.dashboard.flows.deploy.mutationOptions());
  const restore = useMutation(trpc.dashboard.flows.restore.mutationOptions());
  const cancelDeploy = useMutation(trpc.dashboard.flows.cancelDeploy.mutationOptions());

  const deployDraft = async (description: string) => {
    setNotice(null);
    cancelDeploy.reset();
    await autosave.saveNow();
    try {
      const result = await deploy.mutateAsync({ projectId, name, description: description.trim() || undefined });
      setNotice(result.message);
      return true;
    } catch {
      return false; // The error is shown from the mutation's state.
    } finally {
      refresh();
    }
  };

  const restoreRevision = async (target: Revision) => {
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
      onRestored();
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

  const dismissNotice = () => setNotice(null);

  return { deploy, restore, cancelDeploy, notice, dismissNotice, deployDraft, restoreRevision, reload };
};
