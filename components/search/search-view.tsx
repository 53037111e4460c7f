"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { EmptyState, Loading } from "@/components/ui/states";
import { useZodForm } from "@/components/ui/use-zod-form";
import {
  DEFAULT_SCORE_THRESHOLD,
  SEARCH_TOP_K_CHOICES,
  SEARCH_TYPES,
  SearchInput,
  type SearchType,
} from "@/server/retrieval/search.schema";
import { SearchForm, type SearchDraft } from "./search-form";
import { SearchResults } from "./search-results";

/** The search the URL holds (q, type, k, min, source), so Back and a shared link repeat it; bad values fall back. */
const useSearchInUrl = (): SearchDraft & { query: string } => {
  const params = useSearchParams();
  const type = params.get("type") ?? "";
  const k = Number(params.get("k"));
  const min = params.get("min");
  const threshold = min === null ? DEFAULT_SCORE_THRESHOLD : Number(min);
  return {
    query: params.get("q") ?? "",
    searchType: (SEARCH_TYPES as readonly string[]).includes(type) ? (type as SearchType) : "hybrid",
    topK: (SEARCH_TOP_K_CHOICES as readonly number[]).includes(k) ? k : 10,
    scoreThreshold:
      Number.isFinite(threshold) && threshold >= 0 && threshold <= 1 ? threshold : DEFAULT_SCORE_THRESHOLD,
    sourceId: params.get("source") ?? "",
  };
};

/**
 * Search over the project with a search type, Top K, a score threshold and an optional source; each hit opens the
 * element viewer on its page with the element selected.
 */
export const SearchView = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const { query, ...current } = useSearchInUrl();
  const [draft, setDraft] = useState<SearchDraft & { query: string }>({ query, ...current });
  const { errors, validate } = useZodForm(SearchInput);
  const input = {
    projectId,
    query,
    searchType: current.searchType,
    topK: current.topK,
    scoreThreshold: current.scoreThreshold,
    sourceIds: current.sourceId ? [current.sourceId] : undefined,
  };
  const results = useQuery(trpc.dashboard.search.query.queryOptions(input, { enabled: !!query }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { sourceId, ...rest } = draft;
    const values = validate({ projectId, ...rest, sourceIds: sourceId ? [sourceId] : undefined });
    if (!values) return;
    const next = new URLSearchParams({
      q: values.query,
      type: values.searchType,
      k: String(values.topK),
      min: String(values.scoreThreshold),
    });
    if (sourceId) next.set("source", sourceId);
    router.replace(`${pathname}?${next}`);
  };

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Search</h1>
      <SearchForm projectId={projectId} draft={draft} setDraft={setDraft} errors={errors} onSubmit={onSubmit} />
      {!query && (
        <Card>
          <EmptyState title="Search every indexed source of this project">
            Results open the element viewer at the hit.
          </EmptyState>
        </Card>
      )}
      {results.isFetching && !results.data && <Loading>Searching…</Loading>}
      {results.isError && <ErrorAlert>{results.error.message}</ErrorAlert>}
      {results.data && <SearchResults projectId={projectId} data={results.data} />}
    </div>
  );
};
