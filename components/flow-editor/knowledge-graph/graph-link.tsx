"use client";

import Link from "next/link";
import { useParams } from "next/navigation";

/** From a graph-rag node's settings to the graph its deployed revision searches. */
export const KnowledgeGraphLink = ({ projectId, nodeId }: { projectId: string; nodeId: string }) => {
  const { name } = useParams<{ name: string }>();
  return (
    <Link
      href={`/${projectId}/flows/${name}/graph?node=${encodeURIComponent(nodeId)}`}
      className="inline-block text-sm text-link hover:underline"
    >
      View the knowledge graph →
    </Link>
  );
};
