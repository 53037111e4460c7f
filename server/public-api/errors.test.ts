import { initTRPC } from "@trpc/server";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checked } from "./checked";
import { errorResponse } from "./errors";

/** How a public route answers when a procedure's response breaks its `.output()` schema, and that a 400 stays one. */

const t = initTRPC.create();
const Shape = z.strictObject({ name: z.string() });
const Pair = z.strictObject({ name: z.string(), rank: z.number() });
const caller = t
  .router({
    // Typed right, wrong at run time: the extra key arrives through JSON, as a drifting mapper's would.
    drifted: t.procedure.output(checked(Shape)).query(() => ({ name: "a", ...JSON.parse('{"extra":1}') })),
    ordered: t.procedure.output(checked(Pair)).query(() => JSON.parse('{"rank":1,"name":"a"}') as z.infer<typeof Pair>),
    badInput: t.procedure.query(() => Shape.parse({ name: 3 })),
  })
  .createCaller({});
const silent = pino({ level: "silent" });

const answer = async (call: () => Promise<unknown>) => {
  const error = await call().then(
    () => null,
    (e: unknown) => e,
  );
  const res = errorResponse(error, silent);
  return { status: res.status, body: await res.json() };
};

describe("response schemas", () => {
  it("answer a response that breaks its schema with the contract's 500, as any internal error", async () => {
    expect(await answer(() => caller.drifted())).toEqual({ status: 500, body: { detail: "Internal server error" } });
  });

  it("pass a valid response on untouched, in its own key order (a zod parse would reorder it)", async () => {
    expect(JSON.stringify(await caller.ordered())).toBe('{"rank":1,"name":"a"}');
    expect(JSON.stringify(Pair.parse({ rank: 1, name: "a" }))).toBe('{"name":"a","rank":1}');
  });

  it("leave a zod failure inside a procedure (a request field) a 400", async () => {
    expect((await answer(() => caller.badInput())).status).toBe(400);
  });
});
