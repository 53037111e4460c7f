"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ElementCard } from "./element-card";
import { isSourceBusy } from "./format";
import { ProjectBreadcrumbs } from "./project-breadcrumbs";
import { SourceStatusBadge } from "./status-badge";

const PAGE_SIZE = 20;
const POLL_MS = 1_500;

export const SourceElements = ({ projectId, sourceId }: { projectId: string; sourceId: string }) => {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const listTop = useRef<HTMLDivElement>(null);
  const elements = useQuery(
    trpc.dashboard.elements.queryOptions(
      { projectId, sourceId, page, pageSize: PAGE_SIZE },
      {
        // Keep the current page on screen while the next one loads, instead of flashing a loading state.
        placeholderData: keepPreviousData,
        // A source opened while it is still processing fills in by itself.
        refetchInterval: (query) =>
          query.state.data && isSourceBusy(query.state.data.source.status) ? POLL_MS : false,
      },
    ),
  );
  const data = elements.data;
  const totalPages = data?.totalPages ?? 0;

  // A re-processed source can come back shorter than the page we were on. Adjusting state during render (React's
  // pattern for state derived from new data) avoids an effect and its extra render pass.
  if (totalPages > 0 && page > totalPages) setPage(totalPages);

  const goTo = (next: number) => {
    setPage(next);
    listTop.current?.scrollIntoView({ block: "start" });
  };

  return (
    <div className="space-y-6">
      <div>
        <ProjectBreadcrumbs projectId={projectId}>
          <li aria-hidden="true">/</li>
          <li className="break-all text-slate-700">{data?.source.fileName ?? "Source"}</li>
        </ProjectBreadcrumbs>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight break-all">{data?.source.fileName ?? "Source"}</h1>
          {data && <SourceStatusBadge status={data.source.status} />}
        </div>
      </div>

      {elements.isError && <ErrorAlert>Could not load elements: {elements.error.message}</ErrorAlert>}
      {elements.isPending && <p className="text-sm text-slate-500">Loading elements…</p>}

      {data && (
        <Card>
          <div ref={listTop} className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
            <h2 className="text-base font-semibold">Elements</h2>
            <p className="text-sm text-slate-500">
              {data.total} {data.total === 1 ? "element" : "elements"}
            </p>
          </div>
          {data.items.length === 0 ? (
            <p className="px-5 py-6 text-sm text-slate-500">
              {isSourceBusy(data.source.status)
                ? "This source is still being processed; its elements appear here when it is done."
                : data.source.status === "Failed"
                  ? "Processing failed, so this source has no elements."
                  : "This source has no elements."}
            </p>
          ) : (
            <ol
              aria-label="Elements"
              className={`divide-y divide-slate-100 ${elements.isPlaceholderData ? "opacity-60" : ""}`}
            >
              {data.items.map((element) => (
                <ElementCard key={element.elementId} element={element} />
              ))}
            </ol>
          )}
          {totalPages > 1 && (
            <nav
              aria-label="Element pages"
              className="flex items-center justify-between gap-4 border-t border-slate-200 px-5 py-3"
            >
              <Button variant="secondary" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                Previous
              </Button>
              <p className="text-sm text-slate-600" aria-live="polite">
                Page {page} of {totalPages}
              </p>
              <Button variant="secondary" disabled={page >= totalPages} onClick={() => goTo(page + 1)}>
                Next
              </Button>
            </nav>
          )}
        </Card>
      )}
    </div>
  );
};
