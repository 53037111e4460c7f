import type { z } from "zod";
import { inngest } from "./client";
import type { JobEvent } from "./events";
import { inProcessEvents } from "./in-process-events";

/**
 * The one way to start a job: an event of events.ts with its payload, typed against that event's schema. The id
 * makes a re-send (a retry, a restart that sends again) start nothing twice, on the local executor as on an Inngest
 * server. When the local executor runs in this process the event is stored by a direct call (in-process-events.ts);
 * otherwise it goes through `inngest.send()`. The payload is validated by the function before its first step.
 */
export const sendJobEvent = async <E extends JobEvent>(type: E, data: z.input<E["schema"]>, { id }: { id: string }) => {
  const event = { id, name: type.name, data };
  const ingest = inProcessEvents();
  await (ingest ? ingest(event) : inngest.send(event));
};
