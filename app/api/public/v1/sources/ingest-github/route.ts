import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** Contract §5.4: a public GitHub repository (branch and sub-path from the URL); answers with the build id. */
export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.connectors.ingestGithub(await readJson(req)), {
    failureDetail: "Failed to ingest GitHub repository",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
