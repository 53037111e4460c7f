import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ endpointId: string }> };

/** One webhook endpoint: read, change (url, description, events, enabled), delete with its delivery log. */
export const GET = async (req: Request, { params }: Params) => {
  const { endpointId } = await params;
  return handlePublic(req, (api) => api.webhooks.get({ endpoint_id: endpointId }));
};
export const PATCH = async (req: Request, { params }: Params) => {
  const { endpointId } = await params;
  return handlePublic(req, async (api) => api.webhooks.update({ endpoint_id: endpointId, body: await readJson(req) }));
};
export const DELETE = async (req: Request, { params }: Params) => {
  const { endpointId } = await params;
  return handlePublic(req, (api) => api.webhooks.remove({ endpoint_id: endpointId }));
};
export const { POST, PUT } = notAllowed;
