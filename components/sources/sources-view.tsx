"use client";

import { Card } from "@/components/ui/card";
import { ErrorAlert } from "@/components/ui/alert";
import { Loading } from "@/components/ui/states";
import { AddSource } from "./add-source";
import { SourcesTable } from "./sources-table";
import { UnavailableFeaturesNotice } from "./unavailable-features-notice";
import { useProject } from "./use-project";

export const SourcesView = ({ projectId }: { projectId: string }) => {
  const project = useProject(projectId);
  if (project.isPending) return <Loading>Loading the project…</Loading>;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Sources</h1>
      <UnavailableFeaturesNotice features={project.data.unavailableFeatures} forAdmin={project.can("admin")} />
      {project.can("member") && <AddSource projectId={projectId} indexingOptions={project.data.indexingOptions} />}
      <Card label="All sources">
        <SourcesTable projectId={projectId} />
      </Card>
    </div>
  );
};
