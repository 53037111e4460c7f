import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Legacy synchronous re-process (contract §6). */
export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.legacy.process({ ...(await readJson(req)), signal: req.signal }), {
    failureDetail: "Failed to process source",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
