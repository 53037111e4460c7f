import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { logger } from "@/server/logger";
import {
  authSasl,
  authSaslContinue,
  authSaslFinal,
  createScramVerifier,
  fatalError,
  readSaslInitial,
  readSaslResponse,
  startupVersion,
} from "./pglite-auth";
import { queueOf, type QueryQueueInternals } from "./pglite-socket-patch";

/**
 * Guards the ONE backend session that all connections to the embedded server share, so that an outside client
 * (psql, pg_dump, a CLI) cannot change what Quarry's own queries see:
 *
 * - Every connection authenticates (SCRAM-SHA-256). Quarry's own pool uses a per-process password only it knows;
 *   people and tools use the data dir's `db-password`. The password tells the guard who is outside.
 * - When the session passes from an outside connection to another one, its session state is saved and reset
 *   (`DISCARD ALL`: settings such as search_path, temp tables, prepared statements, advisory locks), and given back
 *   when that connection speaks again. pg_dump's `search_path = ''` thus stays pg_dump's.
 * - An outside connection that holds a transaction open and goes quiet while others wait is ended after
 *   `idleInTransactionMs`, as Postgres's idle_in_transaction_session_timeout would (an outside `BEGIN` used to stall
 *   every upload for as long as it was held).
 *
 * Not guarded: a single long statement of an outside client still holds the session while it runs (PGlite cannot
 * cancel it). Keep outside work to short read-only queries and pg_dump.
 */

export type GuardOptions = {
  internalPassword: string;
  outsidePassword: string;
  idleInTransactionMs: number;
};

const PROTOCOL_3_0 = 196608;
const SETTINGS_SQL = "SELECT name, setting FROM pg_catalog.pg_settings WHERE source = 'session'";

type Connection = {
  phase: "startup" | "sasl-initial" | "sasl-final" | "ready";
  outside: boolean;
  startup?: Uint8Array;
  exchange?: NonNullable<ReturnType<ReturnType<typeof createScramVerifier>["start"]>>;
  /** Session settings of an outside connection while another one holds the session. */
  saved?: [string, string][];
  lastMessageAt: number;
};

class Refused extends Error {}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

const refuse = (onData: (d: Uint8Array) => void, code: string, text: string): never => {
  onData(fatalError(code, text));
  throw new Refused(text);
};

/** The startup and SASL exchange, before anything reaches PGlite. */
const authenticate = async (
  verifier: ReturnType<typeof createScramVerifier>,
  handlerId: number,
  conn: Connection,
  message: Uint8Array,
  onData: (d: Uint8Array) => void,
  forward: QueryQueueInternals["enqueue"],
): Promise<number> => {
  if (conn.phase === "startup") {
    if (startupVersion(message) !== PROTOCOL_3_0) refuse(onData, "08P01", "unsupported frontend protocol");
    conn.startup = message;
    conn.phase = "sasl-initial";
    onData(authSasl());
    return 0;
  }
  if (conn.phase === "sasl-initial") {
    const initial = readSaslInitial(message);
    if (initial?.mechanism !== "SCRAM-SHA-256") refuse(onData, "28000", "SCRAM-SHA-256 authentication is required");
    const exchange = verifier.start(initial!.data);
    if (!exchange) refuse(onData, "08P01", "malformed SCRAM message");
    conn.exchange = exchange!;
    conn.phase = "sasl-final";
    onData(authSaslContinue(exchange!.serverFirst));
    return 0;
  }
  const final = readSaslResponse(message);
  const result = final === null ? null : conn.exchange!.finish(final);
  if (!result) {
    logger.warn({ handlerId }, "embedded Postgres: password authentication failed");
    refuse(onData, "28P01", 'password authentication failed for user "postgres"');
  }
  onData(authSaslFinal(result!.serverFinal));
  conn.outside = result!.credential.name !== "internal";
  conn.phase = "ready";
  conn.exchange = undefined;
  // Now PGlite sees the startup message and answers AuthenticationOk, its parameters and ReadyForQuery.
  return forward(handlerId, conn.startup!, onData);
};

/** Ends one connection the way Postgres does: a FATAL message, then the socket closes and its transaction rolls back. */
const endConnection = (server: PGLiteSocketServer, handlerId: number, text: string) => {
  const handlers = (server as unknown as { handlers?: Set<HandlerInternals> }).handlers;
  const handler = [...(handlers ?? [])].find((h) => h.handlerId === handlerId);
  logger.warn({ handlerId }, `embedded Postgres: ${text}`);
  if (!handler) return;
  handler.socket?.write(fatalError("25P03", text));
  handler.handleError(new Error(text));
};

export const guardPgliteSocketServer = (server: PGLiteSocketServer, options: GuardOptions): void => {
  const q = queueOf(server);
  const verifier = createScramVerifier([
    { name: "internal", password: options.internalPassword },
    { name: "outside", password: options.outsidePassword },
  ]);
  const connections = new Map<number, Connection>();
  /** An outside connection changed the session since it was last reset. */
  let dirty = false;

  const forward = q.enqueue.bind(q);
  q.enqueue = async (handlerId, message, onData) => {
    let conn = connections.get(handlerId);
    if (!conn) connections.set(handlerId, (conn = { phase: "startup", outside: true, lastMessageAt: Date.now() }));
    conn.lastMessageAt = Date.now();
    if (conn.phase !== "ready") return authenticate(verifier, handlerId, conn, message, onData, forward);
    if (conn.outside) dirty = true;
    return forward(handlerId, message, onData);
  };

  q.beforeSwitch = async (from, to) => {
    const previous = from === null ? undefined : connections.get(from);
    const next = connections.get(to);
    if (dirty) {
      if (previous?.outside && previous.phase === "ready") {
        const rows = await q.db.query<{ name: string; setting: string }>(SETTINGS_SQL);
        previous.saved = rows.rows.map((r) => [r.name, r.setting]);
      }
      await q.db.exec("DISCARD ALL");
      dirty = false;
    }
    if (next?.outside && next.saved?.length) {
      const sets = next.saved.map(
        ([name, value]) => `SELECT pg_catalog.set_config(${sqlString(name)}, ${sqlString(value)}, false);`,
      );
      await q.db.exec(sets.join("\n"));
      next.saved = undefined;
      dirty = true;
    }
  };

  let stallTimer: NodeJS.Timeout | undefined;
  q.onStall = () => {
    const holder = q.lastHandlerId === null ? undefined : connections.get(q.lastHandlerId);
    if (!holder?.outside || stallTimer) return;
    const holderId = q.lastHandlerId!;
    const seen = holder.lastMessageAt;
    stallTimer = setTimeout(() => {
      stallTimer = undefined;
      const pinned = q.lastHandlerId === holderId && (q.midBatch || q.db.isInTransaction());
      if (!pinned || holder.lastMessageAt !== seen || q.queue.length === 0) return void q.processQueue();
      endConnection(server, holderId, "terminating connection due to idle-in-transaction timeout");
    }, options.idleInTransactionMs);
    stallTimer.unref();
  };

  const clear = q.clearQueueForHandler.bind(q);
  q.clearQueueForHandler = (handlerId) => {
    clear(handlerId);
    const conn = connections.get(handlerId);
    if (conn?.outside && conn.phase === "ready") dirty = true;
    connections.delete(handlerId);
  };
};

type HandlerInternals = {
  handlerId: number;
  socket: { write: (data: Uint8Array) => boolean } | null;
  handleError: (error: Error) => void;
};
