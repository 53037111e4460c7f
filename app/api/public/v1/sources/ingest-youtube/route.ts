import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Contract §5.5: the captions of a YouTube video; answers with the build id. */
export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.connectors.ingestYoutube(await readJson(req)), {
    failureDetail: "Failed to ingest YouTube video",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
