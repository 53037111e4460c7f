"use client";

import { flexRender, type Header } from "@tanstack/react-table";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { SOURCE_STATUSES } from "@/server/sources/dashboard.schema";
import type { SourceRow } from "./types";
import type { SourcesTableState } from "./use-sources-table";
import { TableScroll } from "@/components/ui/table-scroll";

const PAGE_SIZES = [25, 50, 100];

/** Name, status and type filters above the table, and how many sources match. */
export const SourceFilters = ({ state }: { state: SourcesTableState }) => {
  const { status, setStatus, fileType, setFileType, query, setQuery, resetPage } = state.filters;
  const data = state.list.data;
  return (
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
  );
};

/** A column header; sortable columns are a button that cycles the sort. */
const HeaderCell = ({ header }: { header: Header<SourceRow, unknown> }) => {
  const sorted = header.column.getIsSorted();
  return (
    <th
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
};

export const SourceRows = ({ state }: { state: SourcesTableState }) => (
  <TableScroll label="Sources table">
    <table className={`min-w-full text-left text-sm ${state.list.isPlaceholderData ? "opacity-60" : ""}`}>
      <caption className="sr-only">Sources</caption>
      <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
        {state.table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <HeaderCell key={header.id} header={header} />
            ))}
          </tr>
        ))}
      </thead>
      <tbody className="divide-y divide-border">
        {state.table.getRowModel().rows.map((row) => (
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
  </TableScroll>
);

export const SourcePager = ({ state }: { state: SourcesTableState }) => {
  const { table, pagination, setPagination } = state;
  return (
    <nav
      aria-label="Source pages"
      className="flex flex-wrap items-center justify-between gap-3 border-t border-border px-5 py-3"
    >
      <Select
        aria-label="Rows per page"
        value={pagination.pageSize}
        onChange={(e) => setPagination({ pageIndex: 0, pageSize: Number(e.target.value) })}
        className="w-36"
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
  );
};
