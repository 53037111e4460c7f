"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { BuildHistory } from "./build-history";
import { CrawlPages } from "./crawl-pages";
import { ElementViewer } from "./element-viewer";
import { SourceActions } from "./source-actions";
import { SourceStatusBadge } from "./status-badge";
import { useProject } from "./use-project";
import { useSourceView } from "./use-source-view";

/**
 * One source: the element viewer (page image with boxes, elements of the page, the selected element in full),
 * reprocess/delete, and its build history. Page, type and selected element live in the URL, so search results and
 * reloads land on the same view.
 */
export const SourceView = ({ projectId, sourceId }: { projectId: string; sourceId: string }) => {
  const router = useRouter();
  const project = useProject(projectId);
  const view = useSourceView(projectId, sourceId);
  const { source } = view;

  if (source.isError) return <ErrorAlert>{source.error.message}</ErrorAlert>;

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

      <ElementViewer view={view} projectId={projectId} sourceId={sourceId} />

      <CrawlPages projectId={projectId} sourceId={sourceId} />
      <BuildHistory projectId={projectId} sourceId={sourceId} />
    </div>
  );
};
