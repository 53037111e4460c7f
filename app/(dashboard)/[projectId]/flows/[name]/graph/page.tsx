import type { Metadata } from "next";
import { KnowledgeGraphView } from "@/components/flow-editor/knowledge-graph/knowledge-graph-view";
import { ENTITY_LIMIT, ENTITY_LIMIT_MAX } from "@/server/flows/knowledge-graph.schema";

export const metadata: Metadata = { title: "Knowledge graph" };

/** `?top=` from the address: how many entities to draw, within the server's bound (the default otherwise). */
const drawLimit = (top: string | string[] | undefined) => {
  const n = typeof top === "string" && /^\d{1,4}$/.test(top) ? Number(top) : NaN;
  return n >= 1 && n <= ENTITY_LIMIT_MAX ? n : ENTITY_LIMIT;
};

const KnowledgeGraphPage = async ({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; name: string }>;
  searchParams: Promise<{ node?: string | string[]; top?: string | string[] }>;
}) => {
  const { projectId, name } = await params;
  const { node, top } = await searchParams;
  return (
    <KnowledgeGraphView
      projectId={projectId}
      flow={decodeURIComponent(name)}
      node={typeof node === "string" ? node.slice(0, 100) : ""}
      limit={drawLimit(top)}
    />
  );
};

export default KnowledgeGraphPage;
