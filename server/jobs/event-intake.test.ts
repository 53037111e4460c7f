import { describe, expect, it } from "vitest";
import { handleEventRequest, parseEvents, runIdFor } from "./event-intake";
import { seededIds, ulid } from "./inngest-sdk";

describe("event ids", () => {
  it("are ULIDs; seeded ones repeat for the same seed, one per event", () => {
    expect(ulid()).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    const seed = `1700000000000,${Buffer.alloc(10, 7).toString("base64")}`;
    const a = seededIds(seed, 3);
    expect(seededIds(seed, 3)).toEqual(a);
    expect(new Set(a).size).toBe(3);
    expect(a[0]!.slice(0, 10)).toBe(ulid(1_700_000_000_000).slice(0, 10));
    expect(seededIds(null, 2)).toEqual([undefined, undefined]);
    expect(seededIds("garbage", 1)).toEqual([undefined]);
  });

  it("give one stable uuid per (event, function)", () => {
    expect(runIdFor("e1", "f")).toBe(runIdFor("e1", "f"));
    expect(runIdFor("e1", "f")).not.toBe(runIdFor("e1", "g"));
    expect(runIdFor("e1", "f")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("parseEvents", () => {
  it("takes one event or a list and refuses what Inngest refuses", () => {
    expect(parseEvents({ name: "a/b" })).toEqual([{ name: "a/b", data: {} }]);
    expect(parseEvents([{ name: "a/b", data: { x: 1 }, id: "i", ts: 5 }])).toEqual([
      { name: "a/b", data: { x: 1 }, id: "i", ts: 5 },
    ]);
    expect(() => parseEvents([])).toThrow();
    expect(() => parseEvents({ data: {} })).toThrow(/name/);
    expect(() => parseEvents({ name: "inngest/function.failed" })).toThrow(/reserved/);
    expect(() => parseEvents({ name: "a", data: [1] })).toThrow(/data/);
  });
});

describe("handleEventRequest", () => {
  const ingest = async (events: { id?: string }[]) => events.map((e, i) => e.id ?? `id-${i}`);
  const post = (path: string, body: string, init: RequestInit = {}) =>
    new Request(`http://x${path}`, { method: "POST", body, ...init });

  it("answers { ids, status: 200 } and checks the key", async () => {
    const ok = await handleEventRequest(post("/e/k", '{"name":"a/b"}'), { eventKey: "k", ingest });
    expect(await ok.json()).toEqual({ ids: ["id-0"], status: 200 });
    expect((await handleEventRequest(post("/e/nope", '{"name":"a/b"}'), { eventKey: "k", ingest })).status).toBe(401);
    expect((await handleEventRequest(post("/e/any", '{"name":"a/b"}'), { ingest })).status).toBe(200);
    expect((await handleEventRequest(post("/e/k", "{not json"), { eventKey: "k", ingest })).status).toBe(400);
    expect((await handleEventRequest(new Request("http://x/e/k"), { eventKey: "k", ingest })).status).toBe(405);
    const broken = async () => Promise.reject(new Error("database down"));
    expect((await handleEventRequest(post("/e/k", '{"name":"a/b"}'), { eventKey: "k", ingest: broken })).status).toBe(
      500,
    );
  });
});
