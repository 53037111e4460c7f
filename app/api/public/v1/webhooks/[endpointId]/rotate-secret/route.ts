import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** A new signing secret, in this answer only; the old one stops signing at once. */
export const POST = async (req: Request, { params }: { params: Promise<{ endpointId: string }> }) => {
  const { endpointId } = await params;
  return handlePublic(req, (api) => api.webhooks.rotateSecret({ endpoint_id: endpointId }));
};
export const { GET, PUT, PATCH, DELETE } = notAllowed;
