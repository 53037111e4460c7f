import { createHmac } from "node:crypto";
import { db } from "../db";
import { env } from "../env";
import { authSecret } from "./secret";

/**
 * "Forgot your password?" mails a link to whatever address it is given, so it is limited twice: per email address
 * (a mailbox cannot be flooded from many clients) and per client address (one client cannot mail many mailboxes).
 * The counts live in the database, unlike the per-minute limits kept in memory, so several replicas share them: the
 * point is the number of mails sent, and this path is rare, so a row write per request costs nothing that matters.
 * A request over either limit is refused before Better Auth looks the address up, so a known and an unknown address
 * are counted and answered alike (the limit tells nobody who has an account).
 */

/** Each key's window: a fixed hour from its first request. */
export const RESET_WINDOW_SECONDS = 60 * 60;

export const TOO_MANY_RESETS = "Too many password reset requests. Try again in an hour.";

/**
 * Keys are HMACs under the server's secret: the table holds neither email nor client addresses in clear, and a copy
 * of it cannot be matched against a list of addresses without the secret (a plain hash could).
 */
const keyOf = async (kind: "email" | "ip", value: string) =>
  `${kind}:${createHmac("sha256", await authSecret())
    .update(value)
    .digest("base64url")}`;

/** Counts one request for `key` (atomically: one statement, however many replicas); false once over `max`. */
const take = async (key: string, max: number): Promise<boolean> => {
  if (max <= 0) return true;
  const [row] = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO password_reset_limits AS l (key, count, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN l.window_start <= now() - ${RESET_WINDOW_SECONDS}::int * interval '1 second' THEN 1
                   ELSE l.count + 1 END,
      window_start = CASE WHEN l.window_start <= now() - ${RESET_WINDOW_SECONDS}::int * interval '1 second' THEN now()
                          ELSE l.window_start END
    RETURNING count`;
  return (row?.count ?? 0) <= max;
};

/**
 * Whether a "forgot password" request may go on: the client address first (a refused client uses up no address's
 * allowance), then the email address. A body without a string email is left to Better Auth to refuse.
 */
export const resetRequestAllowed = async (body: unknown, clientIp: string | null | undefined): Promise<boolean> => {
  const email = (body as { email?: unknown } | undefined)?.email;
  if (typeof email !== "string") return true;
  // Windows that have passed carry no information; dropped here so the table stays small.
  await db.$executeRaw`DELETE FROM password_reset_limits
    WHERE window_start <= now() - ${RESET_WINDOW_SECONDS}::int * interval '1 second'`;
  if (!(await take(await keyOf("ip", clientIp || "unknown"), env.QUARRY_RESET_REQUESTS_PER_IP_HOUR))) return false;
  return take(await keyOf("email", email.trim().toLowerCase()), env.QUARRY_RESET_MAILS_PER_ADDRESS_HOUR);
};
