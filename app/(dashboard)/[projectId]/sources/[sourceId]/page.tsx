import type { Metadata } from "next";
import { SourceElements } from "@/components/sources/source-elements";

export const metadata: Metadata = { title: "Source" };

const SourcePage = async ({ params }: { params: Promise<{ projectId: string; sourceId: string }> }) => {
  const { projectId, sourceId } = await params;
  return <SourceElements projectId={projectId} sourceId={sourceId} />;
};

export default SourcePage;
