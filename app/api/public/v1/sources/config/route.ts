import { handlePublic, notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const GET = (req: Request) => handlePublic(req, (api) => api.sources.config());
export const { POST, PUT, PATCH, DELETE } = notAllowed;
