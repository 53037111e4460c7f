import type { Metadata } from "next";
import { ProvidersView } from "@/components/model-providers/providers-view";

export const metadata: Metadata = { title: "Model providers" };

const ProvidersPage = async ({ params }: { params: Promise<{ teamId: string }> }) => {
  const { teamId } = await params;
  return <ProvidersView teamId={teamId} />;
};

export default ProvidersPage;
