import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Sends a `webhook.test` event to the endpoint; answers with its delivery (pending). */
export const POST = async (req: Request, { params }: { params: Promise<{ endpointId: string }> }) => {
  const { endpointId } = await params;
  return handlePublic(req, (api) => api.webhooks.sendTest({ endpoint_id: endpointId }));
};
export const { GET, PUT, PATCH, DELETE } = notAllowed;
