import { describe, expect, it } from "vitest";
import { moduleOf, summarise } from "./cpuprofile";

const frame = (functionName: string, url = "") => ({ functionName, url, lineNumber: 0 });

/** root → handler (app chunk) → query (pg) → writev (native); handler also recurses into itself once. */
const profile = {
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2, 5] },
    { id: 2, callFrame: frame("handler", "file:///app/.next/server/chunks/route.js"), children: [3, 6] },
    { id: 3, callFrame: frame("query", "file:///app/node_modules/pg/lib/client.js"), children: [4] },
    { id: 4, callFrame: frame("writev") },
    { id: 5, callFrame: frame("(idle)") },
    { id: 6, callFrame: frame("handler", "file:///app/.next/server/chunks/route.js") },
  ],
  // The last sample came late (the thread did not run): it weighs one interval like the others.
  samples: [4, 4, 3, 6, 5, 2],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 9000],
  startTime: 0,
  endTime: 14000,
};

describe("cpuprofile summary", () => {
  it("names the package, the Next chunk or node's module a script belongs to", () => {
    expect(moduleOf("file:///x/node_modules/@prisma/client/runtime/a.js")).toBe("@prisma/client");
    expect(moduleOf("file:///x/node_modules/pg/lib/client.js")).toBe("pg");
    expect(moduleOf("file:///x/.next/server/chunks/route.js")).toBe(".next/server/chunks/route.js");
    expect(moduleOf("node:net")).toBe("node:net");
    expect(moduleOf("")).toBe("(native)");
  });

  it("counts self and inclusive time per sample, a recursive function once per sample", () => {
    const s = summarise(profile);
    expect(s.total).toBe(6000);
    expect(s.selfFn.get("writev")).toBe(2000);
    expect(s.selfFn.get("handler route.js:1")).toBe(2000);
    expect(s.totalFn.get("handler route.js:1")).toBe(5000);
    expect(s.totalModule.get("pg")).toBe(3000);
    expect(s.selfModule.get("(native)")).toBe(2000); // writev twice; idle is in no module
  });

  it("keeps only the samples under a matching frame, after the skipped start", () => {
    expect(summarise(profile, { filter: /pg\// }).kept).toBe(3000);
    expect(summarise(profile, { skipMs: 3 }).total).toBe(4000); // the samples taken at 3 ms and later
  });
});
