"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/**
 * What deploying the draft would spend building its graph-rag / raptor-rag indexes (server/flows/budget.ts), next to
 * the Deploy button, with the flow's token budget (members edit it). Nothing shows for a flow without such nodes.
 */

const n = (x: number) => x.toLocaleString("en-US");

export const BuildBudget = ({ projectId, name, canEdit }: { projectId: string; name: string; canEdit: boolean }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const estimate = useQuery({
    ...trpc.dashboard.flows.estimate.queryOptions({ projectId, name }),
    // The draft autosaves as it is edited: follow it without a subscription.
    refetchInterval: 5000,
  });
  const save = useMutation(trpc.dashboard.flows.setTokenBudget.mutationOptions());
  const [editing, setEditing] = useState<string | null>(null);
  const data = estimate.data;
  if (!data || data.nodes.length === 0) return null;
  const models = [...new Set(data.nodes.map((node) => node.model).filter(Boolean))];
  const over = data.tokens > data.budget;
  const submit = async (tokens: number | null) => {
    await save.mutateAsync({ projectId, name, tokens });
    setEditing(null);
    await queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.estimate.queryKey({ projectId, name }) });
  };
  return (
    <div
      aria-label="Build estimate"
      className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground"
      title="Estimated from the documents' size; a build stops when it reaches the budget and a later deploy resumes it"
    >
      {models.length === 0 ? (
        <span>Build: model-free, no cost</span>
      ) : (
        <span className={over ? "font-medium text-destructive" : undefined}>
          Build ~{n(data.tokens)} tokens · {n(data.calls)} calls · {models.join(", ")}
        </span>
      )}
      {editing === null ? (
        <>
          <span>
            · budget {n(data.budget)}
            {data.flowBudget === null ? " (default)" : ""}
          </span>
          {canEdit && (
            <Button variant="ghost" size="sm" onClick={() => setEditing(String(data.budget))}>
              Edit budget
            </Button>
          )}
        </>
      ) : (
        <form
          className="flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            void submit(Math.max(0, Math.floor(Number(editing) || 0)));
          }}
        >
          <Input
            aria-label="Token budget"
            type="number"
            min={0}
            step={1000}
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            className="h-7 w-32"
          />
          <Button size="sm" type="submit" disabled={save.isPending}>
            Save
          </Button>
          <Button size="sm" variant="ghost" type="button" onClick={() => void submit(null)}>
            Default
          </Button>
          <Button size="sm" variant="ghost" type="button" onClick={() => setEditing(null)}>
            Cancel
          </Button>
        </form>
      )}
      {save.isError && <span className="text-destructive">{save.error.message}</span>}
    </div>
  );
};
