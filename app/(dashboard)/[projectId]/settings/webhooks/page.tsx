import type { Metadata } from "next";
import { WebhooksView } from "@/components/webhooks/webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

const WebhooksPage = async ({ params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  return <WebhooksView projectId={projectId} />;
};

export default WebhooksPage;
