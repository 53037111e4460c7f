"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { useZodForm } from "@/components/ui/use-zod-form";
import { SEARCH_TYPES, SearchInput, type SearchType } from "@/server/retrieval/search.schema";
import { LABELS, SearchResults } from "./search-results";

/** Search over the project; each hit opens the element viewer on its page with the element selected. */
export const SearchView = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const query = params.get("q") ?? "";
  const searchType = (SEARCH_TYPES as readonly string[]).includes(params.get("type") ?? "")
    ? (params.get("type") as SearchType)
    : "hybrid";
  const [draft, setDraft] = useState({ query, searchType });
  const { errors, validate } = useZodForm(SearchInput);
  const results = useQuery(
    trpc.dashboard.search.query.queryOptions({ projectId, query, searchType, topK: 10 }, { enabled: !!query }),
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const values = validate({ projectId, ...draft, topK: 10 });
    if (values) router.replace(`${pathname}?${new URLSearchParams({ q: values.query, type: values.searchType })}`);
  };

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Search</h1>
      <form
        role="search"
        aria-label="Search the project"
        noValidate
        onSubmit={onSubmit}
        className="flex flex-wrap items-end gap-3"
      >
        <div className="min-w-72 flex-1">
          <Field label="Search" error={errors.query}>
            {(p) => (
              <Input
                {...p}
                type="search"
                value={draft.query}
                onChange={(e) => setDraft({ ...draft, query: e.target.value })}
                placeholder="Ask about your documents"
              />
            )}
          </Field>
        </div>
        <Field label="Search type">
          {(p) => (
            <Select
              {...p}
              value={draft.searchType}
              onChange={(e) => setDraft({ ...draft, searchType: e.target.value as SearchType })}
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
        <Button type="submit">Search</Button>
      </form>

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
