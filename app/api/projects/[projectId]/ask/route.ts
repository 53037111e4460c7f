import { AnswerStream } from "@/server/http/answer-stream";
import { assertSameOrigin } from "@/server/auth/origin";
import { errorResponse } from "@/server/public-api/errors";
import { readJson } from "@/server/public-api/public-route";
import { createDashboardContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

/**
 * The playground's ask: the answer streams as text/event-stream (the same events as the public API). Refused before
 * the body is read unless it comes from this app's pages; the procedure checks session and role.
 */
export const POST = async (req: Request, { params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  const ctx = await createDashboardContext(req);
  try {
    assertSameOrigin(req);
    const body = await readJson(req);
    const stream = await createCaller(ctx).dashboard.answers.ask({ ...body, projectId });
    return stream instanceof AnswerStream ? stream.toResponse() : Response.json(stream);
  } catch (error) {
    return errorResponse(error, ctx.logger);
  }
};
