import { assertSameOrigin } from "@/server/auth/origin";
import { uploadRequest } from "@/server/public-api/multipart";
import { errorResponse } from "@/server/public-api/errors";
import { createDashboardContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

/**
 * The dashboard's upload: a plain multipart POST (so the browser can report progress), same service as the API.
 * Refused before the body is read unless it comes from this app's pages; the procedure checks session and role.
 */
export const POST = async (req: Request, { params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  const ctx = await createDashboardContext(req);
  try {
    assertSameOrigin(req);
    const result = await createCaller(ctx).dashboard.sources.upload({ projectId, upload: uploadRequest(req) });
    return Response.json(result);
  } catch (error) {
    return errorResponse(error, ctx.logger);
  }
};
