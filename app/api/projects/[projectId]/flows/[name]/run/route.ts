import { assertSameOrigin } from "@/server/auth/origin";
import { errorResponse } from "@/server/public-api/errors";
import { readJson } from "@/server/public-api/public-route";
import { createDashboardContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

/**
 * The flow editor's run (the draft or the deployed revision), streamed as text/event-stream: node events as each
 * node starts and finishes, answer tokens, then `done`. The procedure checks session and role.
 */
export const POST = async (req: Request, { params }: { params: Promise<{ projectId: string; name: string }> }) => {
  const { projectId, name } = await params;
  const ctx = await createDashboardContext(req);
  try {
    assertSameOrigin(req);
    const body = await readJson(req);
    const result = await createCaller(ctx).dashboard.flows.run({ ...body, projectId, name });
    return result instanceof Response ? result : Response.json(result);
  } catch (error) {
    return errorResponse(error, ctx.logger);
  }
};
