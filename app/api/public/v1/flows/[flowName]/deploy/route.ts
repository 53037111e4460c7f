import type { FlowParams } from "@/server/public-api/flow-route";
import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";
export const maxDuration = 600;

export const POST = async (req: Request, { params }: FlowParams) => {
  const { flowName } = await params;
  return handlePublic(req, async (api) => api.flows.deploy({ flowName, body: await readJson(req) }), {
    failureDetail: "Failed to deploy flow: internal error",
  });
};
export const { GET, PUT, PATCH, DELETE } = notAllowed;
