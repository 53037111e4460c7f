"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type SortingState,
} from "@tanstack/react-table";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { ProgressBar } from "@/components/ui/progress-bar";
import { EmptyState, Loading } from "@/components/ui/states";
import { SOURCE_STATUSES, type SOURCE_SORTS } from "@/server/sources/dashboard.schema";
import { formatBytes, formatStep } from "./format";
import { SourceActions } from "./source-actions";
import { SourceStatusBadge } from "./status-badge";
import type { SourceRow } from "./types";
import { useProject } from "./use-project";
import { useSourceEvents } from "./use-source-events";

const PAGE_SIZES = [25, 50, 100];
type Sort = (typeof SOURCE_SORTS)[number];

const BuildCell = ({ row }: { row: SourceRow }) => {
  const build = row.build;
  if (!build) return <span className="text-muted-foreground">—</span>;
  if (build.status === "Pending" || build.status === "Processing") {
    return (
      <div className="w-44 space-y-1">
        <div className="flex justify-between text-xs text-muted-foreground">
          <span>{formatStep(build.step)}</span>
          <span>{build.progress}%</span>
        </div>
        <ProgressBar label={`Processing ${row.fileName}`} value={build.progress} />
      </div>
    );
  }
  if (build.status === "Processing failed") {
    return <p className="max-w-xs text-xs text-destructive">{build.error ?? "Processing failed"}</p>;
  }
  return (
    <p className="text-xs text-muted-foreground">
      {build.status === "Completed" ? "Done" : build.status}
      {build.totalPartitions !== null && ` · ${build.totalPartitions} elements`}
      {build.totalPages !== null && ` · ${build.totalPages} pages`}
      {build.warnings.length > 0 && ` · ${build.warnings.length} warning${build.warnings.length > 1 ? "s" : ""}`}
    </p>
  );
};

const column = createColumnHelper<SourceRow>();

/**
 * The project's sources: paginated, filtered and sorted by the server (TanStack Table in manual mode), with rows
 * updated in place from the status stream.
 */
export const SourcesTable = ({ projectId }: { projectId: string }) => {
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

  const columns = [
    column.accessor("fileName", {
      header: "File",
      cell: (info) => (
        <div className="max-w-72 wrap-break-word">
          <Link
            href={`/${projectId}/sources/${info.row.original.id}`}
            className="font-medium text-link hover:underline"
          >
            {info.getValue()}
          </Link>
        </div>
      ),
    }),
    column.accessor("fileType", {
      header: "Type",
      enableSorting: false,
      cell: (info) => <span className="font-mono text-xs text-muted-foreground uppercase">{info.getValue()}</span>,
    }),
    column.accessor("fileSize", {
      header: "Size",
      cell: (info) => <span className="whitespace-nowrap text-muted-foreground">{formatBytes(info.getValue())}</span>,
    }),
    column.accessor("status", { header: "Status", cell: (info) => <SourceStatusBadge status={info.getValue()} /> }),
    column.accessor("method", { header: "Method", enableSorting: false, cell: (info) => info.getValue() ?? "—" }),
    column.display({ id: "build", header: "Build", cell: (info) => <BuildCell row={info.row.original} /> }),
    column.accessor("createdAt", {
      header: "Uploaded",
      cell: (info) => (
        <span className="whitespace-nowrap text-muted-foreground">{new Date(info.getValue()).toLocaleString()}</span>
      ),
    }),
    column.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: (info) =>
        project.can("member") ? (
          <SourceActions
            projectId={projectId}
            source={info.row.original}
            indexingOptions={project.data?.indexingOptions ?? ["full"]}
          />
        ) : null,
    }),
  ];

  const data = list.data;
  // TanStack Table's instance is not memoizable; the compiler skips this component, which is fine for one table.
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
  const filtered = !!(status || fileType || query.trim());

  return (
    <div>
      <div
        className="flex flex-wrap items-end gap-3 border-b border-border px-5 py-3"
        role="search"
        aria-label="Filter sources"
      >
        <Input
          aria-label="Filter by name"
          placeholder="Filter by name"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            resetPage();
          }}
          className="w-56"
        />
        <Select
          aria-label="Filter by status"
          value={status}
          onChange={(e) => (setStatus(e.target.value), resetPage())}
          className="w-40"
        >
          <option value="">Any status</option>
          {SOURCE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Filter by type"
          value={fileType}
          onChange={(e) => (setFileType(e.target.value), resetPage())}
          className="w-32"
        >
          <option value="">Any type</option>
          {(data?.fileTypes ?? []).map((t) => (
            <option key={t} value={t}>
              {t.toUpperCase()}
            </option>
          ))}
        </Select>
        <p className="ml-auto text-sm text-muted-foreground" aria-live="polite">
          {data ? `${data.total} source${data.total === 1 ? "" : "s"}` : ""}
        </p>
      </div>

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
      {data && data.items.length > 0 && (
        <div className="overflow-x-auto">
          <table className={`min-w-full text-left text-sm ${list.isPlaceholderData ? "opacity-60" : ""}`}>
            <caption className="sr-only">Sources</caption>
            <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className="px-4 py-2.5"
                        aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                      >
                        {header.column.getCanSort() ? (
                          <button
                            type="button"
                            onClick={header.column.getToggleSortingHandler()}
                            className="inline-flex items-center gap-1 uppercase hover:text-foreground"
                          >
                            {flexRender(header.column.columnDef.header, header.getContext())}
                            <span aria-hidden="true">{sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : ""}</span>
                          </button>
                        ) : (
                          flexRender(header.column.columnDef.header, header.getContext())
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody className="divide-y divide-border">
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id} className="align-middle hover:bg-muted/50">
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className="px-4 py-2.5">
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.total > 0 && (
        <nav
          aria-label="Source pages"
          className="flex flex-wrap items-center justify-between gap-3 border-t border-border px-5 py-3"
        >
          <Select
            aria-label="Rows per page"
            value={pagination.pageSize}
            onChange={(e) => setPagination({ pageIndex: 0, pageSize: Number(e.target.value) })}
            className="w-32"
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n} / page
              </option>
            ))}
          </Select>
          <div className="flex items-center gap-3">
            <Button
              variant="secondary"
              size="sm"
              disabled={!table.getCanPreviousPage()}
              onClick={() => table.previousPage()}
            >
              Previous
            </Button>
            <span className="text-sm text-muted-foreground">
              Page {pagination.pageIndex + 1} of {Math.max(1, table.getPageCount())}
            </span>
            <Button variant="secondary" size="sm" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
              Next
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
};
