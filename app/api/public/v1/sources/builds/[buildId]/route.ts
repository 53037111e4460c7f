import { handlePublic, notAllowed, readQuery } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

export const GET = async (req: Request, { params }: { params: Promise<{ buildId: string }> }) => {
  const { buildId } = await params;
  return handlePublic(req, (api) => api.sources.getBuild({ ...readQuery(req), build_id: buildId }));
};
export const { POST, PUT, PATCH, DELETE } = notAllowed;
