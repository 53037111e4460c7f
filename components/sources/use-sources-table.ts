"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getCoreRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { SOURCE_SORTS, SOURCE_STATUSES } from "@/server/sources/dashboard.schema";
import { sourceColumns } from "./source-columns";
import { useProject } from "./use-project";
import { useSourceEvents } from "./use-source-events";

type Sort = (typeof SOURCE_SORTS)[number];

/** Filters, sorting and paging of the sources table, the page of sources they select, and the table over it. */
export const useSourcesTable = (projectId: string) => {
  const trpc = useTRPC();
  const project = useProject(projectId);
  const [sorting, setSorting] = useState<SortingState>([{ id: "createdAt", desc: true }]);
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: 25 });
  const [status, setStatus] = useState<string>("");
  const [fileType, setFileType] = useState<string>("");
  const [query, setQuery] = useState("");
  useSourceEvents(projectId);

  const sort = sorting[0];
  const list = useQuery(
    trpc.dashboard.sources.list.queryOptions(
      {
        projectId,
        page: pagination.pageIndex + 1,
        pageSize: pagination.pageSize,
        sort: (sort?.id ?? "createdAt") as Sort,
        direction: sort?.desc === false ? "asc" : "desc",
        status: (status || undefined) as (typeof SOURCE_STATUSES)[number] | undefined,
        fileType: fileType || undefined,
        query: query.trim() || undefined,
      },
      { placeholderData: keepPreviousData },
    ),
  );

  const data = list.data;
  // Stable columns: flexRender mounts each cell function as a component, so a new function on every render would
  // remount the row's actions and close a Reprocess or Delete dialog whenever the list refreshes. The columns read
  // only the role and the indexing options of `project` (a new object each render).
  const role = project.data?.role;
  const indexingOptions = project.data?.indexingOptions;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const columns = useMemo(() => sourceColumns(projectId, project), [projectId, role, indexingOptions]);
  // TanStack Table's instance is not memoizable; the compiler skips this hook, which is fine for one table.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: data?.items ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    rowCount: data?.total ?? 0,
    state: { sorting, pagination },
    onSortingChange: (next) => {
      setSorting(next);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    },
    onPaginationChange: setPagination,
    getRowId: (row) => row.id,
  });
  const resetPage = () => setPagination((p) => ({ ...p, pageIndex: 0 }));
  const filters = { status, setStatus, fileType, setFileType, query, setQuery, resetPage };

  return { project, list, table, pagination, setPagination, filters };
};

export type SourcesTableState = ReturnType<typeof useSourcesTable>;
