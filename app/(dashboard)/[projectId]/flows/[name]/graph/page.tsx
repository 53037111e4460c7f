import type { Metadata } from "next";
import { KnowledgeGraphView } from "@/components/flow-editor/knowledge-graph/knowledge-graph-view";

export const metadata: Metadata = { title: "Knowledge graph" };

const KnowledgeGraphPage = async ({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; name: string }>;
  searchParams: Promise<{ node?: string | string[] }>;
}) => {
  const { projectId, name } = await params;
  const { node } = await searchParams;
  return (
    <KnowledgeGraphView
      projectId={projectId}
      flow={decodeURIComponent(name)}
      node={typeof node === "string" ? node.slice(0, 100) : ""}
    />
  );
};

export default KnowledgeGraphPage;
