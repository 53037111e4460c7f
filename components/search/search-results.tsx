"use client";

import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { Notice } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/states";
import type { SearchType } from "@/server/retrieval/search.schema";
import type { AppRouter } from "@/server/trpc/root";

export const LABELS: Record<SearchType, string> = {
  hybrid: "Hybrid (vectors + BM25)",
  similarity: "Similarity (vectors)",
  keyword: "Keyword (BM25)",
  semantic: "Semantic (hybrid + reranking)",
};

type SearchResponse = inferRouterOutputs<AppRouter>["dashboard"]["search"]["query"];

/** The hits, each a link to the element viewer on its page with the element selected; says when search fell back. */
export const SearchResults = ({ projectId, data }: { projectId: string; data: SearchResponse }) => (
  <div className="space-y-3">
    <p className="text-xs text-muted-foreground" aria-live="polite">
      {data.hits.length} result{data.hits.length === 1 ? "" : "s"} · {data.ranAs} search
    </p>
    {data.ranAs !== data.requested && (
      <Notice>
        {LABELS[data.requested]} could not run in full; these results come from {data.ranAs} search.
      </Notice>
    )}
    {data.message && <Notice>{data.message}</Notice>}
    {data.hits.length === 0 ? (
      <Card>
        {data.scoreThreshold > 0 ? (
          <EmptyState title={`No results above the score threshold (${data.scoreThreshold})`}>
            Nothing scored high enough: try other words, or lower the threshold to see weaker matches.
          </EmptyState>
        ) : (
          <EmptyState title="Nothing found">Try other words, or check that the sources are indexed.</EmptyState>
        )}
      </Card>
    ) : (
      <ol aria-label="Search results" className="space-y-3">
        {data.hits.map((hit, i) => {
          const target = new URLSearchParams();
          if (hit.pageNumber !== null) target.set("page", String(hit.pageNumber));
          if (hit.elementId) target.set("element", hit.elementId);
          return (
            <li key={`${hit.sourceId}-${i}`}>
              <Link
                href={`/${projectId}/sources/${hit.sourceId}?${target}`}
                className="block rounded-lg border border-border bg-card p-4 shadow-sm hover:border-primary focus-visible:outline-2 focus-visible:outline-ring"
              >
                <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
                  <span className="font-medium text-link">
                    {hit.fileName}
                    {hit.pageNumber !== null && ` · page ${hit.pageNumber}`}
                  </span>
                  <span>score {hit.score.toFixed(3)}</span>
                </div>
                <p className="mt-2 line-clamp-4 text-sm whitespace-pre-wrap">{hit.text}</p>
              </Link>
            </li>
          );
        })}
      </ol>
    )}
  </div>
);
