import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Legacy (contract §6): schedules the URL source and answers with it at once (status Processing). */
export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.connectors.uploadUrl(await readJson(req)), {
    failureDetail: "Failed to process URL source",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
