import { LIST_NAMES } from "@/server/flows/service";
import type { FlowParams } from "@/server/public-api/flow-route";
import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** GET /datasets, /chunking, /retrieval, ... (§7.1): the flow's nodes of one kind. */
export const GET = async (req: Request, { params }: FlowParams) => {
  const { flowName, kind } = await params;
  return handlePublic(req, (api) => api.flows.nodes({ flowName, segment: kind! }), {
    failureDetail: `Failed to retrieve ${LIST_NAMES[kind!] ?? "flow"} nodes`,
  });
};
export const { POST, PUT, PATCH, DELETE } = notAllowed;
