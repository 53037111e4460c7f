import { sseEvent, sseResponse } from "@/server/http/sse";
import { errorResponse } from "@/server/public-api/errors";
import { withoutFailureDetails } from "@/server/sources/listing";
import { subscribeToProject, type StatusEvent } from "@/server/sources/status-feed";
import { createDashboardContext } from "@/server/trpc/context";
import { createCaller } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

/** A status change, or the stream's own lines: how long a client waits to reconnect, and a keep-alive comment. */
type FeedFrame = StatusEvent | "retry" | "keep-alive";

/** A frame for one listener; rows lose their failure details unless the listener's role may see them. */
const feedFrame = (frame: FeedFrame, details: boolean) =>
  frame === "retry"
    ? "retry: 3000\n\n"
    : frame === "keep-alive"
      ? ": keep-alive\n\n"
      : sseEvent(
          frame.type,
          frame.type === "source" ? (details ? frame.row : withoutFailureDetails(frame.row)) : frame,
        );

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
  let details = false;
  try {
    ({ details } = await authorize());
  } catch (error) {
    return errorResponse(error, ctx.logger);
  }
  return sseResponse<FeedFrame>({
    produce: (send, signal) =>
      new Promise<void>((resolve) => {
        send("retry");
        const unsubscribe = subscribeToProject(projectId, send);
        const recheck = setInterval(() => {
          authorize().then(
            (access) => {
              details = access.details;
              send("keep-alive");
            },
            () => stop(),
          );
        }, RECHECK_MS);
        const stop = () => {
          unsubscribe();
          clearInterval(recheck);
          resolve();
        };
        signal.addEventListener("abort", stop, { once: true });
      }),
    frame: (frame) => feedFrame(frame, details),
    headers: {
      // no-transform keeps the server's compression from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
    },
    signal: req.signal,
  });
};
