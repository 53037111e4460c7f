"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import type { FlowFiles } from "./use-flow-files";

/** The shipped example flows, one click from a new draft; and a flow file (`Export` of any Quarry) imported. */
export const FlowTemplates = ({ projectId, files }: { projectId: string; files: FlowFiles }) => {
  const trpc = useTRPC();
  const templates = useQuery(trpc.dashboard.flowFiles.templates.queryOptions({ projectId }));
  const [problem, setProblem] = useState<string | null>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    let content: unknown;
    try {
      content = JSON.parse(await file.text());
    } catch {
      setProblem(`${file.name} is not JSON: export a flow from Quarry to get a flow file`);
      return;
    }
    files.importFile.mutate({ projectId, file: content });
  };
  const error = problem ?? files.importFile.error?.message ?? files.fromTemplate.error?.message;
  return (
    <Card label="Templates">
      <CardHeader
        title="Start from a template"
        description="The example flows, ready to point at your documents; or import a flow file exported from Quarry."
        actions={
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-link hover:underline">
            Import a flow file
            <input
              type="file"
              accept=".json,application/json"
              className="sr-only"
              onChange={(e) => {
                void onFile(e.target.files?.[0]);
                e.target.value = "";
              }}
            />
          </label>
        }
      />
      {templates.isError && <ErrorAlert className="m-5">{templates.error.message}</ErrorAlert>}
      <ul aria-label="Flow templates" className="grid gap-3 p-5 sm:grid-cols-2 xl:grid-cols-4">
        {templates.data?.map((t) => (
          <li key={t.name} className="flex flex-col gap-2 rounded-md border border-border p-3">
            <span className="font-medium">{t.name}</span>
            {t.description && <p className="text-xs text-muted-foreground">{t.description}</p>}
            <div className="flex flex-wrap gap-1">
              {t.kinds.map((k) => (
                <Badge key={k}>{k}</Badge>
              ))}
            </div>
            <Button
              size="sm"
              variant="secondary"
              className="mt-auto self-start"
              aria-label={`Use template ${t.name}`}
              disabled={files.fromTemplate.isPending}
              onClick={() => files.fromTemplate.mutate({ projectId, template: t.name })}
            >
              Use template
            </Button>
          </li>
        ))}
      </ul>
      {error && <ErrorAlert className="mx-5 mb-5">{error}</ErrorAlert>}
    </Card>
  );
};
