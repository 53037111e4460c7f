import type { Answer, AnswerEvent, AnswerProgress } from "../answers/events.schema";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import { sseResponse, typedEventFrame } from "./sse";

/**
 * An answer sent as `text/event-stream` (contract §11.4): `token` and `citation` events while it is written, then
 * `done` with the whole answer, or `error` with a detail when it fails after the stream began. A client that goes
 * away aborts the work (model calls stop). The answers domain hands over the run (`runAsk` with its events); this
 * transport frames it, for the public API and the dashboard alike. The dashboard reads the answers domain's events
 * as they are; the public API passes `toWire`, its mapper to the contract's snake_case events.
 */
export class AnswerStream {
  constructor(
    private readonly run: (onEvent: (event: AnswerProgress) => void, signal: AbortSignal) => Promise<Answer>,
    private readonly log: Logger,
    private readonly toWire: (event: AnswerEvent) => { type: string } = (event) => event,
    private readonly failureDetail = "Failed to ask sources",
  ) {}

  toResponse(headers?: HeadersInit): Response {
    return sseResponse<AnswerEvent>({
      produce: async (send, signal) => {
        try {
          send({ type: "done", response: await this.run(send, signal) });
        } catch (error) {
          if (signal.aborted) return;
          const detail = error instanceof AppError ? error.message : this.failureDetail;
          if (!(error instanceof AppError)) this.log.error({ err: error }, "streamed answer failed");
          send({ type: "error", detail });
        }
      },
      frame: (event) => typedEventFrame(this.toWire(event)),
      headers: {
        ...Object.fromEntries(new Headers(headers)),
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }
}
