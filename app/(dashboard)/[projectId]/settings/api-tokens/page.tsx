import type { Metadata } from "next";
import { ApiTokensView } from "@/components/api-tokens/api-tokens-view";

export const metadata: Metadata = { title: "API tokens" };

const ApiTokensPage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <ApiTokensView projectId={projectId} />;
};

export default ApiTokensPage;
