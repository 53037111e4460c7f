import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Legacy synchronous YouTube ingest (contract §6): answers with the source once its build has finished. */
export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.connectors.uploadYoutube({ ...(await readJson(req)), signal: req.signal }), {
    failureDetail: "Failed to process YouTube source",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
