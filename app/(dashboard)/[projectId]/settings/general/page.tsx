import type { Metadata } from "next";
import { ProjectSettingsView } from "@/components/projects/project-settings-view";

export const metadata: Metadata = { title: "Project settings" };

const ProjectSettingsPage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <ProjectSettingsView projectId={projectId} />;
};

export default ProjectSettingsPage;
