import { requestOrigin } from "@/server/public-api/flow-route";
import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const GET = (req: Request) =>
  handlePublic(req, (api) => api.flows.list({ origin: requestOrigin(req) }), { failureDetail: "Failed to list flows" });
export const { POST, PUT, PATCH, DELETE } = notAllowed;
