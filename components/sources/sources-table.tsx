"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { EmptyState, Loading } from "@/components/ui/states";
import { SourceFilters, SourcePager, SourceRows } from "./sources-table-parts";
import { useSourcesTable } from "./use-sources-table";

/**
 * The project's sources: paginated, filtered and sorted by the server (TanStack Table in manual mode), with rows
 * updated in place from the status stream.
 */
export const SourcesTable = ({ projectId }: { projectId: string }) => {
  const state = useSourcesTable(projectId);
  const { project, list, filters } = state;
  const data = list.data;
  const filtered = !!(filters.status || filters.fileType || filters.query.trim());

  return (
    <div>
      <SourceFilters state={state} />

      {list.isPending && <Loading>Loading sources…</Loading>}
      {list.isError && <ErrorAlert className="m-5">Could not load sources: {list.error.message}</ErrorAlert>}
      {data && data.items.length === 0 && (
        <EmptyState title={filtered ? "No source matches these filters" : "No sources yet"}>
          {filtered
            ? "Change or clear the filters."
            : project.can("member")
              ? "Drop files above to add the first ones."
              : "A member of the team can add some."}
        </EmptyState>
      )}
      {data && data.items.length > 0 && <SourceRows state={state} />}
      {data && data.total > 0 && <SourcePager state={state} />}
    </div>
  );
};
