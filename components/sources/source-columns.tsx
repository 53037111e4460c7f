"use client";

import { count } from "@/components/lib/count";
import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { ProgressBar } from "@/components/ui/progress-bar";
import { FailureReason } from "./failure-reason";
import { formatBytes, formatStep } from "./format";
import { SourceActions } from "./source-actions";
import { SourceStatusBadge } from "./status-badge";
import type { SourceRow } from "./types";
import type { useProject } from "./use-project";

const BuildCell = ({ row, showDetails }: { row: SourceRow; showDetails: boolean }) => {
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
    return (
      // A floor on the width: in a phone's narrow table the sentence would otherwise wrap a word a line.
      <div className="max-w-xs min-w-48">
        <FailureReason failure={build.failure} error={build.error} showDetails={showDetails} />
      </div>
    );
  }
  return (
    <p className="text-xs text-muted-foreground">
      {build.status === "Completed" ? "Done" : build.status}
      {build.totalPartitions !== null && ` · ${count(build.totalPartitions, "element")}`}
      {build.totalPages !== null && ` · ${count(build.totalPages, "page")}`}
      {build.warnings.length > 0 && ` · ${count(build.warnings.length, "warning")}`}
    </p>
  );
};

const column = createColumnHelper<SourceRow>();

/** The sources table's columns; actions show only to members of the project. */
export const sourceColumns = (projectId: string, project: ReturnType<typeof useProject>) => [
  column.accessor("fileName", {
    header: "File",
    cell: (info) => (
      <div className="max-w-72 min-w-40 wrap-break-word">
        <Link href={`/${projectId}/sources/${info.row.original.id}`} className="font-medium text-link hover:underline">
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
  column.display({
    id: "build",
    header: "Build",
    cell: (info) => <BuildCell row={info.row.original} showDetails={project.can("admin")} />,
  }),
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
