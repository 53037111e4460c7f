"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { ProgressBar } from "@/components/ui/progress-bar";
import { formatBytes, formatStep, isRowBusy } from "./format";
import { SourceStatusBadge } from "./status-badge";
import type { SourceRow } from "./types";

const POLL_MS = 1_500;

const BuildCell = ({ row }: { row: SourceRow }) => {
  const build = row.build;
  if (!build) return <span className="text-slate-400">—</span>;
  const running = build.status === "Pending" || build.status === "Processing";
  return (
    <div className="space-y-1">
      {running ? (
        <div className="w-48 space-y-1">
          <div className="flex justify-between text-xs text-slate-600">
            <span>{formatStep(build.step)}</span>
            <span>{build.progress}%</span>
          </div>
          <ProgressBar label={`Processing ${row.fileName}`} value={build.progress} />
        </div>
      ) : build.status === "Processing failed" ? (
        <p className="max-w-sm text-xs text-red-700">{build.error ?? "Processing failed"}</p>
      ) : (
        <p className="text-xs text-slate-600">
          {build.status === "Completed" ? "Done" : build.status}
          {build.totalPartitions !== null && ` · ${build.totalPartitions} elements`}
          {build.totalPages !== null && ` · ${build.totalPages} pages`}
        </p>
      )}
      {build.warnings.length > 0 && (
        <ul className="max-w-sm list-disc pl-4 text-xs text-amber-800" aria-label={`Warnings for ${row.fileName}`}>
          {build.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
    </div>
  );
};

export const SourcesTable = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const sources = useQuery(
    trpc.dashboard.sources.queryOptions(
      { projectId },
      // Poll only while something is in flight; an idle list costs nothing.
      { refetchInterval: (query) => (query.state.data?.some(isRowBusy) ? POLL_MS : false) },
    ),
  );

  if (sources.isPending) return <p className="p-5 text-sm text-slate-500">Loading sources…</p>;
  if (sources.isError) {
    return (
      <div className="p-5">
        <ErrorAlert>Could not load sources: {sources.error.message}</ErrorAlert>
      </div>
    );
  }
  if (sources.data.length === 0) {
    return <p className="p-5 text-sm text-slate-500">No sources yet. Upload a file to get started.</p>;
  }

  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Sources</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-3">
              File
            </th>
            <th scope="col" className="px-3 py-3">
              Type
            </th>
            <th scope="col" className="px-3 py-3 text-right">
              Size
            </th>
            <th scope="col" className="px-3 py-3">
              Status
            </th>
            <th scope="col" className="px-3 py-3">
              Method
            </th>
            <th scope="col" className="px-3 py-3">
              Build
            </th>
            <th scope="col" className="px-5 py-3">
              Uploaded
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {sources.data.map((row) => (
            <tr key={row.id} className="align-baseline hover:bg-slate-50">
              <td className="px-5 py-3">
                {/* A max width on a block inside the cell caps the column; long names wrap instead of widening it. */}
                <div className="max-w-72 wrap-break-word">
                  <Link
                    href={`/${projectId}/sources/${row.id}`}
                    className="font-medium text-indigo-700 hover:text-indigo-900 hover:underline"
                  >
                    {row.fileName}
                  </Link>
                </div>
              </td>
              <td className="px-3 py-3 font-mono text-xs uppercase text-slate-600">{row.fileType}</td>
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-600">{formatBytes(row.fileSize)}</td>
              <td className="px-3 py-3">
                <SourceStatusBadge status={row.status} />
              </td>
              <td className="px-3 py-3 text-slate-600">{row.method ?? "—"}</td>
              <td className="px-3 py-3">
                <BuildCell row={row} />
              </td>
              <td className="px-5 py-3 whitespace-nowrap text-slate-500">{new Date(row.createdAt).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};
