import { LIST_NAMES } from "@/server/flows/service";
import type { FlowParams } from "@/server/public-api/flow-route";
import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** PATCH /datasets/{node_id}, /retrieval/{node_id}, ... (§7.1, §7.4): a partial change of one node's config. */
export const PATCH = async (req: Request, { params }: FlowParams) => {
  const { flowName, kind, nodeId } = await params;
  return handlePublic(
    req,
    async (api) => api.flows.updateNode({ flowName, segment: kind!, nodeId: nodeId!, body: await readJson(req) }),
    { failureDetail: `Failed to update ${LIST_NAMES[kind!] ?? "flow"} node` },
  );
};
export const { GET, POST, PUT, DELETE } = notAllowed;
