import { AppError, errorMessage } from "@/server/errors";
import type { FlowRun } from "@/server/flows/run-flow";
import type { FlowEvent } from "@/server/flows/run-graph";
import { sseResponse, typedEventFrame } from "@/server/http/sse";
import { toRunResponse } from "./mappers";

type RunStreamEvent = FlowEvent | { type: "done"; response: unknown } | { type: "error"; detail: string };

/**
 * A flow run's answer (contract §7.2): plain JSON, or (stream) server-sent events: node events and tokens as they
 * happen, then `done` with the same JSON. A client that goes away stops the run before its next node (and its model
 * call in flight).
 */
export const respondToRun = async (
  run: FlowRun,
  { page, pageSize, stream }: { page: number; pageSize: number; stream: boolean },
) => {
  if (!stream) return toRunResponse(await run(), page, pageSize);
  return sseResponse<RunStreamEvent>({
    produce: async (send, signal) => {
      try {
        send({ type: "done", response: toRunResponse(await run({ onEvent: send, signal }), page, pageSize) });
      } catch (error) {
        const detail = error instanceof AppError ? error.message : `Failed to run flow: ${errorMessage(error)}`;
        send({ type: "error", detail });
      }
    },
    frame: typedEventFrame,
    headers: { "cache-control": "no-store" },
  });
};
