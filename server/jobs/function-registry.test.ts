import { Inngest } from "inngest";
import { describe, expect, it } from "vitest";
import { buildRegistry } from "./function-registry";

const client = new Inngest({ id: "app", isDev: true });
const noop = async () => undefined;

describe("buildRegistry", () => {
  const fns = [
    client.createFunction({ id: "plain", triggers: [{ event: "a/one" }] }, noop),
    client.createFunction({ id: "wild", retries: 0, triggers: [{ event: "a/*" }, { cron: "* * * * *" }] }, noop),
    client.createFunction({ id: "guarded", triggers: [{ event: "a/one", if: "event.data.x == 1" }] }, noop),
    client.createFunction({ id: "limited", concurrency: 1, triggers: [{ event: "b/two" }], onFailure: noop }, noop),
  ];
  const registry = buildRegistry(fns, "http://127.0.0.1:3000/api/inngest");

  it("uses the ids serve() routes on, and retries + 1 attempts", () => {
    expect([...registry.functions.keys()]).toEqual([
      "app-plain",
      "app-wild",
      "app-guarded",
      "app-limited",
      "app-limited-failure",
    ]);
    expect(registry.functions.get("app-plain")!.maxAttempts).toBe(4);
    expect(registry.functions.get("app-wild")!.maxAttempts).toBe(1);
    expect(registry.functions.get("app-limited-failure")!.maxAttempts).toBe(2);
  });

  it("routes by event name and wildcard, skips `if` triggers, and routes failures to their handler", () => {
    const ids = (name: string, data: Record<string, unknown> = {}) => registry.route({ name, data }).map((f) => f.id);
    expect(ids("a/one")).toEqual(["app-plain", "app-wild"]);
    expect(ids("a/other")).toEqual(["app-wild"]);
    expect(ids("b/two")).toEqual(["app-limited"]);
    expect(ids("inngest/function.failed", { function_id: "app-limited" })).toEqual(["app-limited-failure"]);
    expect(ids("inngest/function.failed", { function_id: "app-plain" })).toEqual([]);
  });

  it("warns about what it ignores", () => {
    expect(registry.warnings.join("\n")).toMatch(/app-wild.*cron/);
    expect(registry.warnings.join("\n")).toMatch(/app-guarded.*if: event.data.x == 1/);
    expect(registry.warnings.join("\n")).toMatch(/app-limited.*concurrency/);
  });
});
