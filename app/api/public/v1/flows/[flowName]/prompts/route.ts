import type { FlowParams } from "@/server/public-api/flow-route";
import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const GET = async (req: Request, { params }: FlowParams) => {
  const { flowName } = await params;
  return handlePublic(req, (api) => api.flows.prompts({ flowName }), { failureDetail: "Failed to retrieve prompts" });
};
export const { POST, PUT, PATCH, DELETE } = notAllowed;
