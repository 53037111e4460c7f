import type { Metadata } from "next";
import { ProjectModelsView } from "@/components/models/project-models-view";

export const metadata: Metadata = { title: "Models" };

const ModelsPage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <ProjectModelsView projectId={projectId} />;
};

export default ModelsPage;
