"use client";

import { useQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { SEARCH_TOP_K_CHOICES, SEARCH_TYPES, type SearchType } from "@/server/retrieval/search.schema";
import { LABELS } from "./search-results";

export type SearchDraft = { searchType: SearchType; topK: number; scoreThreshold: number; sourceId: string };
type Draft = SearchDraft & { query: string };

/** One source to search, or all; only built sources have anything to search. */
const SourceField = ({
  projectId,
  value,
  onChange,
}: {
  projectId: string;
  value: string;
  onChange: (sourceId: string) => void;
}) => {
  const trpc = useTRPC();
  const sources = useQuery(
    trpc.dashboard.sources.list.queryOptions({
      projectId,
      built: true,
      pageSize: 100,
      sort: "fileName",
      direction: "asc",
    }),
  );
  return (
    <Field label="Source">
      {(p) => (
        <Select {...p} value={value} onChange={(e) => onChange(e.target.value)} className="w-64">
          <option value="">All sources</option>
          {sources.data?.items.map((s) => (
            <option key={s.id} value={s.id}>
              {s.fileName}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
};

/** The query, the search type, how many hits at most, the lowest score shown, and the source to search. */
export const SearchForm = ({
  projectId,
  draft,
  setDraft,
  errors,
  onSubmit,
}: {
  projectId: string;
  draft: Draft;
  setDraft: (draft: Draft) => void;
  errors: Record<string, string>;
  onSubmit: (event: FormEvent) => void;
}) => {
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  return (
    <form role="search" aria-label="Search the project" noValidate onSubmit={onSubmit} className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-72 flex-1">
          <Field label="Search" error={errors.query}>
            {(p) => (
              <Input
                {...p}
                type="search"
                value={draft.query}
                onChange={(e) => set({ query: e.target.value })}
                placeholder="Ask about your documents"
              />
            )}
          </Field>
        </div>
        <Button type="submit">Search</Button>
      </div>
      <div className="flex flex-wrap items-start gap-3">
        <Field label="Search type">
          {(p) => (
            <Select
              {...p}
              value={draft.searchType}
              onChange={(e) => set({ searchType: e.target.value as SearchType })}
              className="w-60"
            >
              {SEARCH_TYPES.map((t) => (
                <option key={t} value={t}>
                  {LABELS[t]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Top K">
          {(p) => (
            <Select {...p} value={draft.topK} onChange={(e) => set({ topK: Number(e.target.value) })} className="w-24">
              {SEARCH_TOP_K_CHOICES.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Score threshold" error={errors.scoreThreshold} hint="0 to 1; lower shows weaker hits">
          {(p) => (
            <Input
              {...p}
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={draft.scoreThreshold}
              onChange={(e) => set({ scoreThreshold: Number(e.target.value) })}
              className="w-28"
            />
          )}
        </Field>
        <SourceField projectId={projectId} value={draft.sourceId} onChange={(sourceId) => set({ sourceId })} />
      </div>
    </form>
  );
};
