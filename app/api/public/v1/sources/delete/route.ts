import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const DELETE = (req: Request) => handlePublic(req, async (api) => api.sources.delete(await readJson(req)));
/** Alias kept for an old client that used POST (contract §5.12). */
export const POST = DELETE;
export const { GET, PUT, PATCH } = notAllowed;
