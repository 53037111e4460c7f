import type { Metadata } from "next";
import { SourceView } from "@/components/sources/source-view";

export const metadata: Metadata = { title: "Source" };

const SourcePage = async ({ params }: { params: Promise<{ projectId: string; sourceId: string }> }) => {
  const { projectId, sourceId } = await params;
  return <SourceView projectId={projectId} sourceId={sourceId} />;
};

export default SourcePage;
