import type { EventInput } from "./event-intake";

/**
 * The local executor's event intake for senders in the same process (the launcher registers it): an event stored
 * by a direct call instead of an HTTP request to the app's own event endpoint, which cost an upload of a small
 * document a fifth of its time. Next's route bundles load their own copies of every module, so the hook lives on
 * globalThis. Without it (an Inngest server, a CLI) `sendJobEvent` (send.ts) goes through `inngest.send()`.
 */
type Ingest = (event: EventInput) => Promise<unknown>;

const slot = globalThis as unknown as { quarryInProcessEvents?: Ingest };

export const setInProcessEvents = (ingest: Ingest | undefined) => {
  slot.quarryInProcessEvents = ingest;
};

export const inProcessEvents = () => slot.quarryInProcessEvents;
