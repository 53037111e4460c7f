import type { Metadata } from "next";
import { SourcesView } from "@/components/sources/sources-view";

export const metadata: Metadata = { title: "Sources" };

const SourcesPage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <SourcesView projectId={projectId} />;
};

export default SourcesPage;
