"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useSourceEvents } from "./use-source-events";

export const LIST_PAGE_SIZE = 100;

export type SetViewParams = (patch: Record<string, string | number | null>) => void;

/** Page, type, selected element and list page as the URL holds them, and a setter that patches them. */
const useViewParams = () => {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();

  // Changes made before the URL catches up (a filter, then at once the next page) build on each other instead of
  // each starting from the last rendered URL and undoing the one before.
  const pending = useRef<URLSearchParams | null>(null);
  const rendered = params.toString();
  useEffect(() => {
    pending.current = null;
  }, [rendered]);
  const setParams: SetViewParams = (patch) => {
    const next = new URLSearchParams(pending.current ?? params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === "") next.delete(k);
      else next.set(k, String(v));
    }
    pending.current = next;
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };

  return {
    pageParam: Number(params.get("page")) || null,
    type: params.get("type") ?? "",
    selected: params.get("element"),
    listPage: Number(params.get("list")) || 1,
    setParams,
  };
};

/** When the source's build finishes elsewhere, its elements and history are read again. */
const useRefreshOnBuild = (projectId: string, sourceId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
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
};

/** The source, the pages it has and the elements the URL asks for. */
export const useSourceView = (projectId: string, sourceId: string) => {
  const trpc = useTRPC();
  const { pageParam, type, selected, listPage, setParams } = useViewParams();

  const source = useQuery(trpc.dashboard.sources.get.queryOptions({ projectId, sourceId }));
  useRefreshOnBuild(projectId, sourceId);

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
  // A type filter spans the whole source ("Table (9)" lists the 9 tables, on whichever pages they are), a list page
  // at a time; without one, a source with pages shows the elements of the current page.
  const typed = type !== "";
  const onePage = paged && !typed;
  const elements = useQuery(
    trpc.dashboard.sources.elements.queryOptions(
      {
        projectId,
        sourceId,
        pageNumber: onePage ? pageNumber : undefined,
        type: type || undefined,
        page: onePage ? 1 : listPage,
        pageSize: LIST_PAGE_SIZE,
      },
      { enabled: overview.isSuccess, placeholderData: keepPreviousData },
    ),
  );

  return { source, overview, elements, pages, paged, typed, pageNumber, type, selected, listPage, setParams };
};

export type SourceViewState = ReturnType<typeof useSourceView>;
