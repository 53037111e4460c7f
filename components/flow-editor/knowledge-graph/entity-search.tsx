"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Input, Label } from "@/components/ui/input";
import { SEARCH_TEXT_MAX } from "@/server/flows/knowledge-graph.schema";
import type { GraphScope, SearchHit } from "./types";

const DEBOUNCE_MS = 250;

/** `value`, once it has stopped changing for `ms`. */
const useDebounced = (value: string, ms: number) => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

/**
 * Finds entities of the whole graph by name or description on the server (dashboard.flows.knowledgeGraphSearch),
 * drawn or not; a hit that is not on the canvas says so.
 */
export const EntitySearch = ({
  scope,
  isDrawn,
  onPick,
}: {
  scope: GraphScope;
  isDrawn: (id: string) => boolean;
  onPick: (hit: SearchHit) => void;
}) => {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const id = useId();
  const query = useDebounced(text.trim(), DEBOUNCE_MS);
  const search = useQuery({
    ...trpc.dashboard.flows.knowledgeGraphSearch.queryOptions({ ...scope, text: query }, { enabled: !!query }),
    placeholderData: keepPreviousData,
  });
  const results = search.data ?? [];
  const settled = !!query && query === text.trim() && !search.isFetching;
  return (
    <div>
      <Label htmlFor={id}>Find an entity</Label>
      <Input
        id={id}
        type="search"
        value={text}
        maxLength={SEARCH_TEXT_MAX}
        placeholder="Name or description"
        onChange={(e) => setText(e.target.value)}
      />
      {text.trim() && (
        <ul aria-label="Matching entities" aria-busy={!settled} className="mt-1 space-y-0.5">
          {search.isError && (
            <li className="px-2 py-1 text-sm text-red-700 dark:text-red-300">{search.error.message}</li>
          )}
          {settled && !search.isError && results.length === 0 && (
            <li className="px-2 py-1 text-sm text-muted-foreground">No entity matches.</li>
          )}
          {results.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                onClick={() => onPick(e)}
                className="flex w-full items-center justify-between gap-2 rounded-md px-2 py-1 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
              >
                <span className="min-w-0 truncate">{e.name}</span>
                <span className="shrink-0 text-xs text-muted-foreground">
                  {isDrawn(e.id) ? e.type : `${e.type} · not drawn`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
