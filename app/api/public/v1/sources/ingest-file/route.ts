import { uploadRequest } from "@/server/public-api/multipart";
import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const POST = (req: Request) =>
  handlePublic(req, (api) => api.sources.ingestFile({ upload: uploadRequest(req) }));
export const { GET, PUT, PATCH, DELETE } = notAllowed;
