import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Legacy element listing (contract §6): LangChain-style documents, filters in a nested `filter` object. */
export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.legacy.elements(await readJson(req)), {
    failureDetail: "Failed to get elements",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
