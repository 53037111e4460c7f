"use client";

import { count } from "@/components/lib/count";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { Loading } from "@/components/ui/states";
import { FailureReason } from "./failure-reason";
import { formatStep } from "./format";
import { useProject } from "./use-project";
import { TableScroll } from "@/components/ui/table-scroll";

const TONE: Record<string, BadgeTone> = {
  Pending: "neutral",
  Processing: "info",
  Completed: "success",
  "Completed with errors": "warning",
  "Processing failed": "danger",
};

/** Every build of a source, newest first: how it was read, how it ended, and what went wrong. */
export const BuildHistory = ({ projectId, sourceId }: { projectId: string; sourceId: string }) => {
  const trpc = useTRPC();
  const builds = useQuery(trpc.dashboard.sources.builds.queryOptions({ projectId, sourceId }));
  const showDetails = useProject(projectId).can("admin");
  return (
    <Card label="Build history">
      <CardHeader title="Build history" />
      {builds.isPending && <Loading />}
      {builds.isError && <ErrorAlert className="m-5">{builds.error.message}</ErrorAlert>}
      {builds.data && (
        <TableScroll label="Builds table">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Builds</caption>
            <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
              <tr>
                <th scope="col" className="px-5 py-2">
                  Started
                </th>
                <th scope="col" className="px-3 py-2">
                  Kind
                </th>
                <th scope="col" className="px-3 py-2">
                  Options
                </th>
                <th scope="col" className="px-3 py-2">
                  Status
                </th>
                <th scope="col" className="px-5 py-2">
                  Result
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {builds.data.map((b) => (
                <tr key={b.id} className="align-top">
                  <td className="px-5 py-2 whitespace-nowrap text-muted-foreground">
                    {new Date(b.createdAt).toLocaleString()}
                  </td>
                  <td className="px-3 py-2">{b.kind}</td>
                  <td className="px-3 py-2 text-muted-foreground">
                    {b.method} · enrichment {b.enrichment} · indexing {b.indexing}
                  </td>
                  <td className="px-3 py-2">
                    <Badge tone={TONE[b.status] ?? "neutral"}>{b.status}</Badge>
                  </td>
                  <td className="px-5 py-2 text-muted-foreground">
                    {b.status === "Pending" || b.status === "Processing" ? (
                      `${formatStep(b.step)} · ${b.progress}%`
                    ) : b.failure ? (
                      <FailureReason failure={b.failure} error={b.error} showDetails={showDetails} />
                    ) : (
                      [
                        b.totalPartitions !== null && count(b.totalPartitions, "element"),
                        b.totalPages !== null && count(b.totalPages, "page"),
                        ...b.warnings,
                      ]
                        .filter(Boolean)
                        .join(" · ")
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
};
