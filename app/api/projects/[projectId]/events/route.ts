import { errorResponse } from "@/server/public-api/errors";
import { subscribeToProject, type StatusEvent } from "@/server/sources/status-feed";
import { createDashboardContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

/** How often the stream re-checks that the viewer may still see the project, and keeps proxies from closing it. */
const RECHECK_MS = 15_000;

/**
 * Server-sent events: status changes of the project's sources (see server/sources/status-feed.ts). The session and
 * the viewer role are checked by the `watch` procedure when the stream opens and again every 15 s, so signing out or
 * losing membership ends it.
 */
export const GET = async (req: Request, { params }: { params: Promise<{ projectId: string }> }) => {
  const { projectId } = await params;
  const ctx = await createDashboardContext(req);
  const authorize = () => createCaller(ctx).dashboard.sources.watch({ projectId });
  try {
    await authorize();
  } catch (error) {
    return errorResponse(error, ctx.logger);
  }
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start: (controller) => {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const unsubscribe = subscribeToProject(projectId, (event: StatusEvent) =>
        send(`event: ${event.type}\ndata: ${JSON.stringify(event.type === "source" ? event.row : event)}\n\n`),
      );
      const recheck = setInterval(() => {
        authorize().then(
          () => send(": keep-alive\n\n"),
          () => stop(),
        );
      }, RECHECK_MS);
      stop = () => {
        unsubscribe();
        clearInterval(recheck);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      req.signal.addEventListener("abort", () => stop());
      send("retry: 3000\n\n");
    },
    cancel: () => stop(),
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps the server's compression from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
    },
  });
};
