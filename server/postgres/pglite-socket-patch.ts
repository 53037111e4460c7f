import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { sessionTiming, type SessionTiming } from "./session-timing";

/**
 * Fix for the query queue of @electric-sql/pglite-socket 0.2.17 when maxConnections > 1.
 *
 * PGlite has one backend session. The stock queue hands it one protocol message at a time and picks the next
 * message from any connection, so the Parse/Bind/Describe/Execute of one client interleave with another's, and
 * around BEGIN/COMMIT queries fail ("unnamed prepared statement does not exist") or hang. An exception also left
 * `processing` set, which stalled the queue for good.
 *
 * After the patch, an extended-protocol batch stays on its connection until its Sync, and so does a transaction
 * until it ends. Verified with 1000 concurrent queries through pg Pools of 10 and 20 (see embedded-postgres.int.test.ts).
 *
 * The patch replaces private members, so it checks their shape first: an upgraded package fails loudly here
 * instead of silently running unpatched.
 */

/** Parse, Bind, Describe, Execute, Close, Flush: the client is mid-batch until it sends Sync. */
const EXTENDED_PROTOCOL_MESSAGES = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);
/**
 * Parse, Bind, Describe, Execute, Close: their answers wait for the batch's Sync (or a Flush), as a real Postgres
 * buffers them. One socket write per statement instead of five: on loopback each write costs the sender the
 * receiver's TCP work too, and that was a fifth of the database thread's time for small documents.
 */
const HELD_ANSWERS = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);

export type QueuedMessage = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
};

/** The private parts of pglite-socket's QueryQueueManager that the patch touches. */
export type QueryQueueInternals = {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  enqueue: (handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) => Promise<number>;
  processQueue: () => Promise<void>;
  clearQueueForHandler: (handlerId: number) => void;
  /** Added by the session guard (pglite-guard.ts): runs before a message of another connection takes the session. */
  beforeSwitch?: (from: number | null, to: number) => Promise<void>;
  /** Added by the session guard: the pinned connection has nothing queued while others wait. */
  onStall?: () => void;
  /** Added by the patch: the last message processed was part of an unfinished extended-protocol batch. */
  midBatch?: boolean;
  /** Added by the patch: answers of the unfinished batch, written to its socket in one piece at its Sync or Flush. */
  held?: Uint8Array[];
  patched?: boolean;
  /** Added by the patch: logs what held the session long (QUARRY_DB_SLOW_MS; session-timing.ts). */
  timing?: SessionTiming | null;
};

export const queueOf = (server: PGLiteSocketServer): QueryQueueInternals => {
  const queue = (server as unknown as { queryQueue?: Partial<QueryQueueInternals> }).queryQueue;
  const looksRight =
    !!queue &&
    Array.isArray(queue.queue) &&
    typeof queue.processQueue === "function" &&
    typeof queue.enqueue === "function" &&
    typeof queue.clearQueueForHandler === "function" &&
    typeof queue.db?.isInTransaction === "function";
  if (!looksRight) {
    throw new Error(
      "pglite-socket's query queue no longer has the shape the queue patch expects (written for 0.2.17). " +
        "Check server/postgres/pglite-socket-patch.ts against the installed version.",
    );
  }
  return queue as QueryQueueInternals;
};

/** The size of the database's wasm memory (Emscripten's module is not in PGlite's types). */
const wasmBytes = (db: PGlite) =>
  (db as PGlite & { Module?: { wasmMemory?: WebAssembly.Memory } }).Module?.wasmMemory?.buffer.byteLength ?? 0;

const nextMessage = (q: QueryQueueInternals): QueuedMessage | undefined => {
  const pinned = (q.midBatch || q.db.isInTransaction()) && q.lastHandlerId !== null;
  if (!pinned) return q.queue.shift();
  const index = q.queue.findIndex((m) => m.handlerId === q.lastHandlerId);
  // Nothing from the pinned connection yet: stop; its next message re-enters processQueue through enqueue.
  return index < 0 ? undefined : q.queue.splice(index, 1)[0];
};

const processQueue = async (q: QueryQueueInternals): Promise<void> => {
  if (q.processing || q.queue.length === 0) return;
  q.processing = true;
  try {
    for (let message = nextMessage(q); message; message = nextMessage(q)) {
      const current = message;
      const hold = HELD_ANSWERS.has(current.message[0] ?? 0);
      let bytes = 0;
      try {
        if (current.handlerId !== q.lastHandlerId) await q.beforeSwitch?.(q.lastHandlerId, current.handlerId);
        const started = q.timing ? performance.now() : 0;
        const memoryBefore = q.timing ? wasmBytes(q.db) : 0;
        await q.db.runExclusive(() =>
          q.db.execProtocolRawStream(current.message, {
            onRawData: (data) => {
              bytes += data.length;
              // A view of wasm memory, which the next write reuses: copied.
              q.held!.push(data.slice());
            },
          }),
        );
        q.timing?.ran(current.handlerId, current.message, performance.now() - started, q.db.isInTransaction(), {
          before: memoryBefore,
          after: wasmBytes(q.db),
        });
      } catch (error) {
        // The failing connection is torn down by its handler; the queue must keep serving the others.
        q.midBatch = false;
        q.held = [];
        current.reject(error);
        continue;
      }
      if (!hold) {
        const answers = q.held!;
        q.held = [];
        if (answers.length) current.onData(answers.length === 1 ? answers[0]! : Buffer.concat(answers));
      }
      q.midBatch = EXTENDED_PROTOCOL_MESSAGES.has(current.message[0] ?? 0);
      q.lastHandlerId = current.handlerId;
      current.resolve(bytes);
    }
  } finally {
    q.processing = false;
  }
  if (q.queue.length > 0) q.onStall?.();
};

/** Apply before `server.start()`. Idempotent. */
export const patchPgliteSocketServer = (server: PGLiteSocketServer): void => {
  const q = queueOf(server);
  if (q.patched) return;
  q.patched = true;
  q.midBatch = false;
  q.held = [];
  q.timing = sessionTiming();
  q.processQueue = () => processQueue(q);

  const clearQueueForHandler = q.clearQueueForHandler.bind(q);
  q.clearQueueForHandler = (handlerId) => {
    clearQueueForHandler(handlerId);
    // A client that disconnects mid-batch would otherwise pin the queue to a connection that will never speak again.
    if (q.lastHandlerId === handlerId && q.midBatch) {
      q.midBatch = false;
      q.held = [];
      queueMicrotask(() => void q.processQueue());
    }
  };
};
