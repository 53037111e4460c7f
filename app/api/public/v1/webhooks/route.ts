import { handlePublic, notAllowed, readJson } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/** The project's webhook endpoints (README "Webhooks"); POST adds one and answers with its secret, once. */
export const GET = (req: Request) => handlePublic(req, (api) => api.webhooks.list());
export const POST = async (req: Request) =>
  handlePublic(req, async (api) => api.webhooks.create(await readJson(req)), {
    failureDetail: "Failed to create webhook endpoint",
  });
export const { PUT, PATCH, DELETE } = notAllowed;
