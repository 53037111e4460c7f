"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Loading } from "@/components/ui/states";
import { SafeTable } from "./safe-table";

/** Everything about one element: its text, the table or picture it holds, enrichment and raw metadata. */
export const ElementDetail = ({
  projectId,
  sourceId,
  elementId,
}: {
  projectId: string;
  sourceId: string;
  elementId: string;
}) => {
  const trpc = useTRPC();
  const element = useQuery(trpc.dashboard.sources.element.queryOptions({ projectId, sourceId, elementId }));
  if (element.isPending) return <Loading>Loading the element…</Loading>;
  if (element.isError) return <ErrorAlert>{element.error.message}</ErrorAlert>;
  const e = element.data;
  return (
    <article aria-label="Element details" className="space-y-4 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="info">{e.type}</Badge>
        {e.pageNumber !== null && <span className="text-xs text-muted-foreground">Page {e.pageNumber}</span>}
        <span className="text-xs text-muted-foreground">#{e.position}</span>
        <code className="ml-auto text-xs text-muted-foreground">{e.elementId}</code>
      </div>
      {e.type === "Table" ? (
        <SafeTable html={e.html} text={e.text} label="Extracted table" />
      ) : (
        <p className="leading-relaxed whitespace-pre-wrap" aria-label="Element text">
          {e.text || <span className="text-muted-foreground">(no text)</span>}
        </p>
      )}
      {e.imgBase64 && (
        // eslint-disable-next-line @next/next/no-img-element -- an inline picture extracted from the document
        <img
          src={`data:image/png;base64,${e.imgBase64}`}
          alt={`Picture from page ${e.pageNumber ?? "?"}`}
          className="max-h-96 rounded border border-border"
        />
      )}
      {(e.pageAnnotation || e.pageKeywords.length > 0 || e.pageTopics.length > 0) && (
        <section aria-label="Enrichment" className="space-y-2 rounded-md bg-muted p-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            Page enrichment{typeof e.metadata.enrichment_model === "string" ? ` · ${e.metadata.enrichment_model}` : ""}
          </h3>
          {e.pageAnnotation && <p>{e.pageAnnotation}</p>}
          {e.pageKeywords.length > 0 && (
            <p className="flex flex-wrap gap-1">
              {e.pageKeywords.map((k) => (
                <Badge key={k}>{k}</Badge>
              ))}
            </p>
          )}
          {e.pageTopics.length > 0 && (
            <p className="text-xs text-muted-foreground">Topics: {e.pageTopics.join(", ")}</p>
          )}
        </section>
      )}
      <details className="text-xs">
        <summary className="cursor-pointer text-muted-foreground select-none">Metadata</summary>
        <pre
          aria-label="Element metadata"
          tabIndex={0}
          className="mt-2 overflow-x-auto rounded-md bg-muted p-3 font-mono"
        >
          {JSON.stringify({ bounding_box: e.box, page_layout: e.layout, ...e.metadata }, null, 2)}
        </pre>
      </details>
    </article>
  );
};
