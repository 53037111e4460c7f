import { createHash, timingSafeEqual } from "node:crypto";
import { logger } from "@/server/logger";
import {
  EVENT_ID_SEED_HEADER,
  eventApiResponse,
  isReservedEventName,
  seededIds,
  ulid,
  type StoredEvent,
} from "./inngest-sdk";

/**
 * Events in: the ids they get and the `POST /e/<eventKey>` endpoint that `inngest.send()` talks to
 * (inngest@4 `Inngest._send`: body = one event or an array, expected answer `{ ids, status: 200 }`).
 */

export type EventInput = { name: string; data?: Record<string, unknown>; id?: string; ts?: number; v?: string };

/** One run per (event, function), with an id derived from both: ingesting the same event id twice is a no-op. */
export const runIdFor = (eventId: string, functionId: string) => {
  const b = createHash("sha256").update(`${eventId}\n${functionId}`).digest();
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.subarray(0, 16).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

export const toStoredEvent = (input: EventInput, fallbackId?: string): StoredEvent => ({
  name: input.name,
  data: input.data ?? {},
  id: input.id || fallbackId || ulid(),
  ts: typeof input.ts === "number" ? input.ts : Date.now(),
  ...(input.v ? { v: input.v } : {}),
});

class BadEvent extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Only what Inngest's event API accepts; `inngest/` names are the server's own and cannot be sent. */
export const parseEvents = (body: unknown): EventInput[] => {
  const list = Array.isArray(body) ? body : [body];
  if (!list.length) throw new BadEvent("no events");
  return list.map((raw, i) => {
    if (!isRecord(raw)) throw new BadEvent(`event ${i} is not an object`);
    const { name, data, id, ts, v } = raw;
    if (typeof name !== "string" || !name.trim()) throw new BadEvent(`event ${i} has no name`);
    if (isReservedEventName(name)) throw new BadEvent(`event ${i}: the "inngest/" prefix is reserved`);
    if (data !== undefined && data !== null && !isRecord(data))
      throw new BadEvent(`event ${i}: data must be an object`);
    if (id !== undefined && id !== null && typeof id !== "string")
      throw new BadEvent(`event ${i}: id must be a string`);
    if (ts !== undefined && ts !== null && typeof ts !== "number")
      throw new BadEvent(`event ${i}: ts must be a number`);
    return {
      name,
      data: (data as Record<string, unknown> | null | undefined) ?? {},
      ...(id ? { id: id as string } : {}),
      ...(typeof ts === "number" ? { ts } : {}),
      ...(typeof v === "string" ? { v } : {}),
    };
  });
};

const keysEqual = (given: string, expected: string) => {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
};

export type IngestMany = (events: { input: EventInput; id?: string }[]) => Promise<string[]>;

/**
 * `POST …/e/<eventKey>`. With no key configured any key is accepted, as the Inngest dev server does; otherwise the
 * key must match.
 */
export const handleEventRequest = async (
  req: Request,
  { eventKey, ingest }: { eventKey?: string; ingest: IngestMany },
): Promise<Response> => {
  if (req.method !== "POST") return eventApiResponse(405, { error: "method not allowed" });
  const match = /\/e\/([^/]+)\/?$/.exec(new URL(req.url).pathname);
  if (!match) return eventApiResponse(404, { error: "not found" });
  if (eventKey !== undefined && !keysEqual(decodeURIComponent(match[1]!), eventKey)) {
    return eventApiResponse(401, { error: "Event key not found" });
  }
  let events: EventInput[];
  try {
    events = parseEvents(await req.json());
  } catch (error) {
    const message = error instanceof BadEvent ? error.message : "body is not JSON";
    return eventApiResponse(400, { error: message });
  }
  const ids = seededIds(req.headers.get(EVENT_ID_SEED_HEADER), events.length);
  try {
    const eventIds = await ingest(events.map((input, i) => ({ input, id: ids[i] })));
    return eventApiResponse(200, { ids: eventIds });
  } catch (err) {
    // The sender retries a 500 with the same seeded ids, so a retry that lands starts each run once.
    logger.error({ err }, "could not store events");
    return eventApiResponse(500, { error: "could not store events" });
  }
};
