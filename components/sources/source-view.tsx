"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { BuildHistory } from "./build-history";
import { CrawlPages } from "./crawl-pages";
import { ElementDetail } from "./element-detail";
import { PageCanvas } from "./page-canvas";
import { SourceActions } from "./source-actions";
import { SourceStatusBadge } from "./status-badge";
import { useProject } from "./use-project";
import { useSourceEvents } from "./use-source-events";

const LIST_PAGE_SIZE = 100;

/**
 * One source: the element viewer (page image with boxes, elements of the page, the selected element in full),
 * reprocess/delete, and its build history. Page, type and selected element live in the URL, so search results and
 * reloads land on the same view.
 */
export const SourceView = ({ projectId, sourceId }: { projectId: string; sourceId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const project = useProject(projectId);
  const pageParam = Number(params.get("page")) || null;
  const type = params.get("type") ?? "";
  const selected = params.get("element");
  const listPage = Number(params.get("list")) || 1;

  // Changes made before the URL catches up (a filter, then at once the next page) build on each other instead of
  // each starting from the last rendered URL and undoing the one before.
  const pending = useRef<URLSearchParams | null>(null);
  const rendered = params.toString();
  useEffect(() => {
    pending.current = null;
  }, [rendered]);
  const setParams = (patch: Record<string, string | number | null>) => {
    const next = new URLSearchParams(pending.current ?? params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === "") next.delete(k);
      else next.set(k, String(v));
    }
    pending.current = next;
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };

  const source = useQuery(trpc.dashboard.sources.get.queryOptions({ projectId, sourceId }));
  // When the source's build finishes elsewhere, its elements and history are read again.
  useSourceEvents(projectId, (row) => {
    if (row.id !== sourceId) return;
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.sources.get.queryKey({ projectId, sourceId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.sources.builds.queryKey({ projectId, sourceId }) });
    if (row.build?.status === "Completed" || row.build?.status === "Completed with errors") {
      void queryClient.invalidateQueries({
        queryKey: trpc.dashboard.sources.elements.queryKey({ projectId, sourceId }),
      });
    }
  });

  // The first query learns which pages exist; a source with pages then shows one page at a time.
  const overview = useQuery(
    trpc.dashboard.sources.elements.queryOptions({ projectId, sourceId, page: 1, pageSize: 1 }),
  );
  const pages = overview.data?.pages ?? [];
  const paged = pages.length > 0;
  const pageNumber = paged
    ? pageParam && pages.some((p) => p.pageNumber === pageParam)
      ? pageParam
      : pages[0]!.pageNumber
    : undefined;
  const elements = useQuery(
    trpc.dashboard.sources.elements.queryOptions(
      {
        projectId,
        sourceId,
        pageNumber,
        type: type || undefined,
        page: paged ? 1 : listPage,
        pageSize: LIST_PAGE_SIZE,
      },
      { enabled: overview.isSuccess, placeholderData: keepPreviousData },
    ),
  );

  if (source.isError) return <ErrorAlert>{source.error.message}</ErrorAlert>;
  const data = elements.data;
  const pageIndex = pages.findIndex((p) => p.pageNumber === pageNumber);
  const goToPage = (n: number) => setParams({ page: n, element: null });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <nav aria-label="Breadcrumb" className="mb-1 text-sm text-muted-foreground">
            <Link href={`/${projectId}/sources`} className="hover:underline">
              Sources
            </Link>{" "}
            /
          </nav>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight break-all">{source.data?.fileName ?? "Source"}</h1>
            {source.data && <SourceStatusBadge status={source.data.status} />}
          </div>
        </div>
        {source.data && project.can("member") && (
          <SourceActions
            projectId={projectId}
            source={{ id: sourceId, fileName: source.data.fileName, method: source.data.method }}
            indexingOptions={project.data?.indexingOptions ?? ["full"]}
            onDeleted={() => router.push(`/${projectId}/sources`)}
          />
        )}
      </div>

      <Card label="Element viewer">
        <CardHeader
          title="Elements"
          description={
            data
              ? `${data.total} element${data.total === 1 ? "" : "s"}${paged ? ` on page ${pageNumber}` : ""}`
              : undefined
          }
          actions={
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
              {paged && (
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
          }
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
        {data && data.buildId && (
          <div
            className={cn(
              "grid gap-5 p-5",
              paged && data.hasPageImages ? "lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" : "",
            )}
          >
            {paged && data.hasPageImages && pageNumber !== undefined && (
              <PageCanvas
                src={`/api/projects/${projectId}/sources/${sourceId}/pages/${pageNumber}/image?width=1000`}
                items={data.items}
                selected={selected}
                pageNumber={pageNumber}
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
                <ol
                  aria-label="Elements"
                  className="max-h-[36rem] divide-y divide-border overflow-y-auto rounded-md border border-border"
                >
                  {data.items.map((item) => (
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
                      </button>
                    </li>
                  ))}
                </ol>
              )}
              {!paged && data.total > LIST_PAGE_SIZE && (
                <nav aria-label="Element pages" className="flex items-center justify-between">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={listPage <= 1}
                    onClick={() => setParams({ list: listPage - 1 })}
                  >
                    Previous
                  </Button>
                  <span className="text-sm text-muted-foreground">
                    {listPage} of {Math.ceil(data.total / LIST_PAGE_SIZE)}
                  </span>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={listPage >= Math.ceil(data.total / LIST_PAGE_SIZE)}
                    onClick={() => setParams({ list: listPage + 1 })}
                  >
                    Next
                  </Button>
                </nav>
              )}
            </div>
          </div>
        )}
      </Card>

      <CrawlPages projectId={projectId} sourceId={sourceId} />
      <BuildHistory projectId={projectId} sourceId={sourceId} />
    </div>
  );
};
