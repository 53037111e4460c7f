import { uploadRequest } from "@/server/public-api/multipart";
import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Legacy synchronous upload (contract §6): answers with the source once its build has finished. */
export const POST = (req: Request) =>
  handlePublic(req, (api) => api.legacy.upload({ upload: uploadRequest(req), signal: req.signal }), {
    failureDetail: "Failed to upload source",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
