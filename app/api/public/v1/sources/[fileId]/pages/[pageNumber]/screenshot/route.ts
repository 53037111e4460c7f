import { handlePublic, notAllowed, readQuery } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ fileId: string; pageNumber: string }> };

/**
 * Page screenshot (contract §5.11). Static siblings (builds/, config/, …) win over `[fileId]` in Next's routing;
 * a path like /config/pages/1/screenshot lands here and is simply an unknown source.
 */
export const GET = async (req: Request, { params }: Params) => {
  const { fileId, pageNumber } = await params;
  return handlePublic(
    req,
    (api) => api.legacy.screenshot({ ...readQuery(req), file_id: fileId, page_number: pageNumber }),
    { headers: { "Cache-Control": "public, max-age=3600" }, failureDetail: "Failed to render screenshot" },
  );
};
export const { POST, PUT, PATCH, DELETE } = notAllowed;
