"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { SourceRow, SourcesPage } from "./types";

/**
 * Live status from the server (server-sent events): a changed source replaces its row in every cached page of the
 * table, in place; a change in the number of sources re-reads the open page. Nothing polls.
 */
export const useSourceEvents = (projectId: string, onRow?: (row: SourceRow) => void) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onRowRef = useRef(onRow);
  useEffect(() => {
    onRowRef.current = onRow;
  }, [onRow]);

  useEffect(() => {
    const listKey = trpc.dashboard.sources.list.queryKey({ projectId });
    const events = new EventSource(`/api/projects/${projectId}/events`);
    events.addEventListener("source", (message) => {
      const row = JSON.parse((message as MessageEvent<string>).data) as SourceRow;
      let present = false;
      queryClient.setQueriesData<SourcesPage>({ queryKey: listKey }, (page) => {
        if (!page?.items.some((r) => r.id === row.id)) return page;
        present = true;
        return { ...page, items: page.items.map((r) => (r.id === row.id ? row : r)) };
      });
      // A row this tab has not seen (someone else's upload): the page it belongs on is re-read once.
      if (!present) void queryClient.invalidateQueries({ queryKey: listKey });
      onRowRef.current?.(row);
    });
    events.addEventListener("count", () => void queryClient.invalidateQueries({ queryKey: listKey }));
    return () => events.close();
  }, [projectId, queryClient, trpc]);
};
