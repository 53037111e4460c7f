import type { Metadata } from "next";
import { FlowsList } from "@/components/flow-editor/flows-list";

export const metadata: Metadata = { title: "Flows" };

const FlowsPage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <FlowsList projectId={projectId} />;
};

export default FlowsPage;
