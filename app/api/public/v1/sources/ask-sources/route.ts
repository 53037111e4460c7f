import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const POST = (req: Request) =>
  handlePublic(req, async (api) => api.answers.askSources(await readJson(req)), {
    failureDetail: "Failed to ask sources",
  });
export const { GET, PUT, PATCH, DELETE } = notAllowed;
