"use client";

import { count } from "@/components/lib/count";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { ElementDetail } from "./element-detail";
import { PageCanvas } from "./page-canvas";
import { LIST_PAGE_SIZE, type SetViewParams, type SourceViewState } from "./use-source-view";

type ElementsData = NonNullable<SourceViewState["elements"]["data"]>;

/** The type filter and, for a source with pages, the page picker. */
const ElementFilters = ({ view }: { view: SourceViewState }) => {
  const { overview, pages, paged, typed, pageNumber, type, setParams } = view;
  const pageIndex = pages.findIndex((p) => p.pageNumber === pageNumber);
  const goToPage = (n: number) => setParams({ page: n, element: null });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Select
        aria-label="Element type"
        value={type}
        onChange={(e) => setParams({ type: e.target.value, element: null, list: null })}
        className="h-8 w-44"
      >
        <option value="">All types</option>
        {(overview.data?.types ?? []).map((t) => (
          <option key={t.type} value={t.type}>
            {t.type} ({t.count})
          </option>
        ))}
      </Select>
      {paged && !typed && (
        <nav aria-label="Pages" className="flex items-center gap-1">
          <Button
            variant="secondary"
            size="sm"
            disabled={pageIndex <= 0}
            onClick={() => goToPage(pages[pageIndex - 1]!.pageNumber)}
          >
            Previous page
          </Button>
          <Select
            aria-label="Page"
            value={pageNumber}
            onChange={(e) => goToPage(Number(e.target.value))}
            className="h-8 w-28"
          >
            {pages.map((p) => (
              <option key={p.pageNumber} value={p.pageNumber}>
                Page {p.pageNumber}
              </option>
            ))}
          </Select>
          <Button
            variant="secondary"
            size="sm"
            disabled={pageIndex < 0 || pageIndex >= pages.length - 1}
            onClick={() => goToPage(pages[pageIndex + 1]!.pageNumber)}
          >
            Next page
          </Button>
        </nav>
      )}
    </div>
  );
};

const ElementList = ({
  items,
  selected,
  setParams,
  showPage,
}: {
  items: ElementsData["items"];
  selected: string | null;
  setParams: SetViewParams;
  /** A type filter lists elements of several pages: each says its page. */
  showPage: boolean;
}) => (
  <ol
    aria-label="Elements"
    className="max-h-[36rem] divide-y divide-border overflow-y-auto rounded-md border border-border"
  >
    {items.map((item) => (
      <li key={item.elementId}>
        <button
          type="button"
          aria-current={item.elementId === selected ? "true" : undefined}
          onClick={() => setParams({ element: item.elementId })}
          className={cn(
            "flex w-full items-start gap-3 px-3 py-2 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring",
            item.elementId === selected && "bg-accent",
          )}
        >
          <Badge tone={item.type === "Title" ? "info" : "neutral"}>{item.type}</Badge>
          <span className="line-clamp-2 min-w-0 flex-1">{item.preview || "(no text)"}</span>
          {showPage && item.pageNumber !== null && (
            <span className="shrink-0 text-xs text-muted-foreground">Page {item.pageNumber}</span>
          )}
        </button>
      </li>
    ))}
  </ol>
);

/** Paging through the elements of a source without pages, a list page at a time. */
const ListPager = ({ total, listPage, setParams }: { total: number; listPage: number; setParams: SetViewParams }) => (
  <nav aria-label="Element pages" className="flex items-center justify-between">
    <Button variant="secondary" size="sm" disabled={listPage <= 1} onClick={() => setParams({ list: listPage - 1 })}>
      Previous
    </Button>
    <span className="text-sm text-muted-foreground">
      {listPage} of {Math.ceil(total / LIST_PAGE_SIZE)}
    </span>
    <Button
      variant="secondary"
      size="sm"
      disabled={listPage >= Math.ceil(total / LIST_PAGE_SIZE)}
      onClick={() => setParams({ list: listPage + 1 })}
    >
      Next
    </Button>
  </nav>
);

/** The page image beside the selected element and the element list. */
const ElementsGrid = ({
  view,
  data,
  projectId,
  sourceId,
}: {
  view: SourceViewState;
  data: ElementsData;
  projectId: string;
  sourceId: string;
}) => {
  const { paged, typed, pageNumber, selected, listPage, setParams } = view;
  // Filtered by type, the list spans pages: the image shows the selected element's page (else the first hit's).
  const imagePage = typed
    ? (data.items.find((i) => i.elementId === selected)?.pageNumber ?? data.items[0]?.pageNumber ?? undefined)
    : pageNumber;
  const onImage = typed ? data.items.filter((i) => i.pageNumber === imagePage) : data.items;
  const refused = data.pageImagesRefused && {
    detail: data.pageImagesRefused.message,
    reason: data.pageImagesRefused.detail,
  };
  const showsPage = data.hasPageImages || refused !== null;
  return (
    <div className={cn("grid gap-5 p-5", paged && showsPage ? "lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" : "")}>
      {paged && showsPage && imagePage !== undefined && (
        <PageCanvas
          refused={refused}
          src={`/api/projects/${projectId}/sources/${sourceId}/pages/${imagePage}/image?width=1000`}
          items={onImage}
          selected={selected}
          pageNumber={imagePage}
          onSelect={(id) => setParams({ element: id })}
        />
      )}
      <div className="min-w-0 space-y-4">
        {selected && (
          <div className="rounded-md border border-border p-4">
            <ElementDetail projectId={projectId} sourceId={sourceId} elementId={selected} />
          </div>
        )}
        {data.items.length === 0 ? (
          <EmptyState title="No elements match" />
        ) : (
          <ElementList items={data.items} selected={selected} setParams={setParams} showPage={paged && typed} />
        )}
        {(!paged || typed) && data.total > LIST_PAGE_SIZE && (
          <ListPager total={data.total} listPage={listPage} setParams={setParams} />
        )}
      </div>
    </div>
  );
};

/** The element viewer card: filters, loading and empty states, then the grid. */
export const ElementViewer = ({
  view,
  projectId,
  sourceId,
}: {
  view: SourceViewState;
  projectId: string;
  sourceId: string;
}) => {
  const { source, overview, elements, paged, typed, pageNumber } = view;
  const data = elements.data;
  return (
    <Card label="Element viewer">
      <CardHeader
        title="Elements"
        description={
          data?.buildId
            ? `${count(data.total, "element")}${paged ? (typed ? " on all pages" : ` on page ${pageNumber}`) : ""}`
            : undefined
        }
        // A source without a build (failed, or not processed yet) has nothing to filter.
        actions={overview.data?.buildId ? <ElementFilters view={view} /> : undefined}
      />
      {(overview.isPending || (elements.isPending && elements.fetchStatus !== "idle")) && (
        <Loading>Loading elements…</Loading>
      )}
      {elements.isError && <ErrorAlert className="m-5">{elements.error.message}</ErrorAlert>}
      {overview.data && !overview.data.buildId && (
        <EmptyState title={source.data?.status === "Failed" ? "Processing failed" : "No elements yet"}>
          {source.data?.status === "Failed"
            ? "See the build history below for the reason; reprocess to try again."
            : "Elements appear here when processing finishes."}
        </EmptyState>
      )}
      {data && data.buildId && <ElementsGrid view={view} data={data} projectId={projectId} sourceId={sourceId} />}
    </Card>
  );
};
