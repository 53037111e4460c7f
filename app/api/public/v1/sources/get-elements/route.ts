import { handlePublic, notAllowed, readQuery } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const GET = (req: Request) => handlePublic(req, (api) => api.sources.getElements(readQuery(req)));
export const { POST, PUT, PATCH, DELETE } = notAllowed;
