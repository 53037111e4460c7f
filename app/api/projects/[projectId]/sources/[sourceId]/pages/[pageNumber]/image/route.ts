import { AppError } from "@/server/errors";
import { errorResponse } from "@/server/public-api/errors";
import { createDashboardContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ projectId: string; sourceId: string; pageNumber: string }> };

/** A page image for the element viewer (session and viewer role checked by the procedure). */
export const GET = async (req: Request, { params }: Params) => {
  const { projectId, sourceId, pageNumber } = await params;
  const ctx = await createDashboardContext(req);
  try {
    const page = Number(pageNumber);
    if (!Number.isInteger(page) || page < 1) throw new AppError("NOT_FOUND", "Page not found");
    const width = Number(new URL(req.url).searchParams.get("width") ?? "") || undefined;
    const { png, refusal } = await createCaller(ctx).dashboard.sources.pageImage({
      projectId,
      sourceId,
      pageNumber: page,
      width,
    });
    if (!png) {
      // The viewer shows `detail` in place of the image, and `reason` (admins only) behind its Details toggle.
      const body = { detail: refusal.message, ...(refusal.detail ? { reason: refusal.detail } : {}) };
      return Response.json(body, { status: refusal.status, headers: { "Cache-Control": "no-store" } });
    }
    return new Response(new Uint8Array(png), {
      headers: { "Content-Type": "image/png", "Cache-Control": "private, max-age=3600" },
    });
  } catch (error) {
    return errorResponse(error, ctx.logger);
  }
};
