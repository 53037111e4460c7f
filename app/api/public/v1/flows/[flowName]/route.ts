import { requestOrigin, type FlowParams } from "@/server/public-api/flow-route";
import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";
/** A run may generate for a while; the deploy route waits up to 10 minutes. */
export const maxDuration = 600;

export const GET = async (req: Request, { params }: FlowParams) => {
  const { flowName } = await params;
  return handlePublic(req, (api) => api.flows.get({ flowName, origin: requestOrigin(req) }));
};
export const POST = async (req: Request, { params }: FlowParams) => {
  const { flowName } = await params;
  return handlePublic(req, async (api) => api.flows.run({ flowName, body: await readJson(req) }), {
    failureDetail: "Failed to run flow: internal error",
  });
};
export const { PUT, PATCH, DELETE } = notAllowed;
