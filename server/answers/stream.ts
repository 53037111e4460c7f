import { AppError } from "../errors";
import type { Logger } from "../logger";
import { sseFrame, type AnswerEvent } from "./events.schema";

/**
 * An answer sent as `text/event-stream` (contract §11.4): `token` and `citation` events while it is written, then
 * `done` with the whole response object, or `error` with a detail when it fails after the stream began. A client
 * that goes away aborts the work (model calls stop).
 */
export class AnswerStream {
  constructor(
    private readonly run: (onEvent: (event: AnswerEvent) => void, signal: AbortSignal) => Promise<unknown>,
    private readonly log: Logger,
    private readonly failureDetail = "Failed to ask sources",
  ) {}

  toResponse(headers?: HeadersInit): Response {
    const abort = new AbortController();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let open = true;
        const send = (event: AnswerEvent) => {
          if (open) controller.enqueue(encoder.encode(sseFrame(event)));
        };
        this.run(send, abort.signal)
          .then((response) => send({ type: "done", response: response as Record<string, unknown> }))
          .catch((error: unknown) => {
            if (abort.signal.aborted) return;
            const detail = error instanceof AppError ? error.message : this.failureDetail;
            if (!(error instanceof AppError)) this.log.error({ err: error }, "streamed answer failed");
            send({ type: "error", detail });
          })
          .finally(() => {
            if (!open) return;
            open = false;
            controller.close();
          });
      },
      cancel: () => abort.abort(new Error("client went away")),
    });
    return new Response(body, {
      headers: {
        ...Object.fromEntries(new Headers(headers)),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }
}
