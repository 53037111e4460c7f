import type { Metadata } from "next";
import { FlowEditor } from "@/components/flow-editor/flow-editor";

export const metadata: Metadata = { title: "Flow editor" };

const FlowEditorPage = async ({ params }: { params: Promise<{ projectId: string; name: string }> }) => {
  const { projectId, name } = await params;
  return <FlowEditor projectId={projectId} name={decodeURIComponent(name)} />;
};

export default FlowEditorPage;
