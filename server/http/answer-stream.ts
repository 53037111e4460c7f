import type { AnswerEvent } from "../answers/events.schema";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import { sseResponse, typedEventFrame } from "./sse";

/**
 * An answer sent as `text/event-stream` (contract §11.4): `token` and `citation` events while it is written, then
 * `done` with the whole response object, or `error` with a detail when it fails after the stream began. A client
 * that goes away aborts the work (model calls stop). The answers domain hands over the run (`runAsk` with its
 * events); this transport frames it, for the public API and the dashboard alike.
 */
export class AnswerStream {
  constructor(
    private readonly run: (onEvent: (event: AnswerEvent) => void, signal: AbortSignal) => Promise<unknown>,
    private readonly log: Logger,
    private readonly failureDetail = "Failed to ask sources",
  ) {}

  toResponse(headers?: HeadersInit): Response {
    return sseResponse<AnswerEvent>({
      produce: async (send, signal) => {
        try {
          send({ type: "done", response: (await this.run(send, signal)) as Record<string, unknown> });
        } catch (error) {
          if (signal.aborted) return;
          const detail = error instanceof AppError ? error.message : this.failureDetail;
          if (!(error instanceof AppError)) this.log.error({ err: error }, "streamed answer failed");
          send({ type: "error", detail });
        }
      },
      frame: typedEventFrame,
      headers: {
        ...Object.fromEntries(new Headers(headers)),
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }
}
