import { Card } from "@/components/ui/card";
import { AddWebSource } from "./add-web-source";
import { ProjectBreadcrumbs } from "./project-breadcrumbs";
import { SourcesTable } from "./sources-table";
import { UploadForm } from "./upload-form";

export const SourcesView = ({ projectId }: { projectId: string }) => (
  <div className="space-y-6">
    <div>
      <ProjectBreadcrumbs projectId={projectId} />
      <h1 className="text-2xl font-semibold tracking-tight">Sources</h1>
    </div>
    <Card className="p-5">
      <h2 className="mb-4 text-base font-semibold">Upload a file</h2>
      <UploadForm projectId={projectId} />
    </Card>
    <Card className="p-5">
      <h2 className="mb-4 text-base font-semibold">Add from the web</h2>
      <AddWebSource projectId={projectId} />
    </Card>
    <Card>
      <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold">All sources</h2>
      <SourcesTable projectId={projectId} />
    </Card>
  </div>
);
