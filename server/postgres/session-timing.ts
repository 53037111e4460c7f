import { logger } from "@/server/logger";

/**
 * Who holds the embedded database's one session, and for how long: with QUARRY_DB_SLOW_MS set, every statement and
 * every transaction that kept the session longer than that is logged (warn) with the start of its SQL. Every other
 * connection, the health check's included, waits that long. Off by default (a Map lookup per message when on).
 */

const decoder = new TextDecoder();

/** The SQL of a simple Query ('Q') or a Parse ('P') message; null for other messages. */
const sqlOf = (message: Uint8Array): string | null => {
  const type = message[0];
  if (type !== 0x51 && type !== 0x50) return null;
  let start = 5;
  if (type === 0x50) start = message.indexOf(0, start) + 1; // skip the statement name
  const end = message.indexOf(0, start);
  return decoder.decode(message.subarray(start, end < 0 ? undefined : end)).replace(/\s+/g, " ").slice(0, 160);
};

const threshold = () => {
  // QUARRY_DB_SLOW_MS (server/env.ts; read here directly: this module runs in the database's own thread).
  const ms = Number(process.env.QUARRY_DB_SLOW_MS || 0);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
};

export type SessionTiming = {
  /**
   * Called around every protocol message the session runs, with the database's wasm memory before and after: that
   * memory never shrinks, so a statement that grew it is logged too.
   */
  ran: (
    handlerId: number,
    message: Uint8Array,
    ms: number,
    inTransaction: boolean,
    memory: { before: number; after: number },
  ) => void;
};

export const sessionTiming = (): SessionTiming | null => {
  const slowMs = threshold();
  if (!slowMs) return null;
  const lastSql = new Map<number, string>();
  let transaction: { handlerId: number; startedAt: number; busyMs: number; first: string } | null = null;
  return {
    ran: (handlerId, message, ms, inTransaction, memory) => {
      const sql = sqlOf(message);
      if (sql !== null) lastSql.set(handlerId, sql);
      const statement = lastSql.get(handlerId) ?? "";
      if (memory.after > memory.before) {
        const mb = (n: number) => Math.round(n / 1048576);
        logger.warn({ fromMb: mb(memory.before), toMb: mb(memory.after), sql: statement }, "database memory grew");
      }
      // Execute ('E') and simple Query ('Q') run the statement; the other messages take microseconds.
      if (ms >= slowMs) logger.warn({ ms: Math.round(ms), sql: statement }, "database session held by a statement");
      if (inTransaction && !transaction) {
        transaction = { handlerId, startedAt: performance.now() - ms, busyMs: 0, first: statement };
      }
      if (transaction) transaction.busyMs += ms;
      if (!inTransaction && transaction) {
        const spanMs = performance.now() - transaction.startedAt;
        if (spanMs >= slowMs) {
          logger.warn(
            { ms: Math.round(spanMs), busyMs: Math.round(transaction.busyMs), first: transaction.first, last: statement },
            "database session held by a transaction",
          );
        }
        transaction = null;
      }
    },
  };
};
