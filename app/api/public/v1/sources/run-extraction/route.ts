import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.answers.runExtraction(await readJson(req)), {
    failureDetail: "Failed to run extraction",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
