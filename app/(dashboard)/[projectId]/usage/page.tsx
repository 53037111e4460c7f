import type { Metadata } from "next";
import { UsageView } from "@/components/usage/usage-view";

export const metadata: Metadata = { title: "Usage" };

const UsagePage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <UsageView projectId={projectId} />;
};

export default UsagePage;
