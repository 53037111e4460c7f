"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { SourceStatusBadge } from "@/components/sources/status-badge";
import { ErrorAlert } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";
import { Loading } from "@/components/ui/states";
import type { DatasetConfig } from "@/server/flows/node-kinds.schema";
import { ConfigFieldset, errorOf } from "./fields";
import { useKindForm } from "./use-kind-form";

/** The dataset's files: a picker over the project's sources (stored by id; the names ride along for display). */
export const DatasetForm = ({ nodeId, projectId }: { nodeId: string; projectId: string }) => {
  const trpc = useTRPC();
  const [query, setQuery] = useState("");
  const sources = useQuery({
    ...trpc.dashboard.sources.list.queryOptions({
      projectId,
      // A dataset answers from built sources only: a failed upload has nothing to search.
      built: true,
      pageSize: 100,
      sort: "fileName",
      direction: "asc",
      query: query.trim() || undefined,
    }),
    placeholderData: keepPreviousData,
  });
  const { form, readOnly } = useKindForm<DatasetConfig>(nodeId, "dataset");
  const fileIds = form.watch("fileIds") ?? [];
  const files = form.watch("files") ?? [];
  const toggle = (id: string, name: string, on: boolean) => {
    const pairs = fileIds.map((fid, i) => [fid, files[i] ?? ""] as const).filter(([fid]) => fid !== id);
    const next = on ? [...pairs, [id, name] as const] : pairs;
    form.setValue(
      "files",
      next.map(([, n]) => n),
      { shouldDirty: true },
    );
    form.setValue(
      "fileIds",
      next.map(([fid]) => fid),
      { shouldDirty: true, shouldValidate: true },
    );
  };
  const listed = new Set(sources.data?.items.map((s) => s.id));
  const elsewhere = fileIds.map((id, i) => ({ id, name: files[i] ?? id })).filter((f) => !listed.has(f.id));
  return (
    <ConfigFieldset label="Dataset files" readOnly={readOnly}>
      <p className="text-sm text-muted-foreground">
        {fileIds.length === 0
          ? "No files yet: pick the sources this flow answers from."
          : `${fileIds.length} file${fileIds.length === 1 ? "" : "s"} selected`}
      </p>
      <Input
        aria-label="Filter sources"
        placeholder="Filter by file name"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {errorOf(form.formState.errors, "fileIds") && (
        <p className="text-xs text-destructive">{errorOf(form.formState.errors, "fileIds")}</p>
      )}
      {sources.isPending ? (
        <Loading>Loading sources…</Loading>
      ) : sources.isError ? (
        <ErrorAlert>{sources.error.message}</ErrorAlert>
      ) : sources.data.items.length === 0 && !query ? (
        <p className="rounded-md border border-dashed border-border px-3 py-4 text-center text-sm text-muted-foreground">
          This project has no processed sources yet.{" "}
          <Link className="text-link underline" href={`/${projectId}/sources`}>
            Add some
          </Link>{" "}
          first.
        </p>
      ) : (
        <ul aria-label="Project sources" className="max-h-64 divide-y divide-border overflow-auto rounded-md border">
          {[
            ...elsewhere.map((f) => ({ ...f, status: null })),
            ...sources.data.items.map((s) => ({ id: s.id, name: s.fileName, status: s.status })),
          ].map((s) => (
            <li key={s.id} className="flex items-center gap-2 px-2.5 py-1.5 text-sm">
              <input
                id={`pick-${s.id}`}
                type="checkbox"
                checked={fileIds.includes(s.id)}
                onChange={(e) => toggle(s.id, s.name, e.target.checked)}
              />
              <label htmlFor={`pick-${s.id}`} className="min-w-0 flex-1 truncate">
                {s.name}
              </label>
              {s.status && <SourceStatusBadge status={s.status} />}
            </li>
          ))}
          {sources.data.items.length === 0 && (
            <li className="px-2.5 py-3 text-center text-sm text-muted-foreground">No source matches “{query}”</li>
          )}
        </ul>
      )}
    </ConfigFieldset>
  );
};
