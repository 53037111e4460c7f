import { logger } from "../logger";

/**
 * The one way Quarry sends server-sent events: answers (contract §11.4), flow runs (§7.2) and the project's status
 * feed. Each stream keeps its own framing and headers (they are what clients already read); what they share is here:
 * sends after the stream ended are dropped, and a client that goes away (the stream is cancelled, or the request's
 * signal aborts) aborts the producer's signal, so the work behind the stream stops instead of running for nobody.
 */

/** `event: <type>` and the data's JSON on one `data:` line. */
export const sseEvent = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/** The frame of answers and flow runs: the event's `type` names it and the whole event is its data. */
export const typedEventFrame = (event: { type: string }) => sseEvent(event.type, event);

export type SseStream<E> = {
  /** Sends events until it settles; `signal` aborts when the client goes away. */
  produce: (send: (event: E) => void, signal: AbortSignal) => Promise<void>;
  /** How one event is written on the wire. */
  frame: (event: E) => string;
  /** The stream's own headers (caching, proxies) beside the content type. */
  headers: Record<string, string>;
  /** The request's signal, when the caller has it: a client gone before the stream is read is noticed too. */
  signal?: AbortSignal;
};

export const sseResponse = <E>({ produce, frame, headers, signal }: SseStream<E>): Response => {
  const abort = new AbortController();
  const encoder = new TextEncoder();
  // False once the stream is closed or cancelled: later sends are dropped, and it is never closed twice.
  let open = true;
  const goneAway = () => abort.abort(new Error("client went away"));
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      const close = () => {
        if (!open) return;
        open = false;
        controller.close();
      };
      const send = (event: E) => {
        if (open) controller.enqueue(encoder.encode(frame(event)));
      };
      const requestAborted = () => {
        goneAway();
        close();
      };
      if (signal?.aborted) return requestAborted();
      signal?.addEventListener("abort", requestAborted, { once: true });
      produce(send, abort.signal)
        .catch((error: unknown) => logger.error({ err: error }, "event stream failed"))
        .finally(() => {
          signal?.removeEventListener("abort", requestAborted);
          close();
        });
    },
    cancel: () => {
      open = false;
      goneAway();
    },
  });
  return new Response(body, { headers: { ...headers, "content-type": "text/event-stream; charset=utf-8" } });
};

/** Splits a text/event-stream body into the JSON payloads of its frames (for clients and tests). */
export const parseSseFrames = (text: string): unknown[] =>
  text
    .split(/\r?\n\r?\n/)
    .map((frame) =>
      frame
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n"),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data));
