import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Contract §5.3: a web page, a crawl from it, or a file URL; answers with the build id at once. */
export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.connectors.ingestUrl(await readJson(req)), {
    failureDetail: "Failed to ingest URL",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
