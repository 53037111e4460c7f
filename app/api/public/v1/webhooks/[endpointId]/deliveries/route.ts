import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** The endpoint's newest 50 deliveries: status, attempts, HTTP status, latency, last error. */
export const GET = async (req: Request, { params }: { params: Promise<{ endpointId: string }> }) => {
  const { endpointId } = await params;
  return handlePublic(req, (api) => api.webhooks.deliveries({ endpoint_id: endpointId }));
};
export const { POST, PUT, PATCH, DELETE } = notAllowed;
