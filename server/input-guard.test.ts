import { describe, expect, it } from "vitest";
import { AppError } from "./errors";
import { hasNul, isMalformedPath, NUL_DETAIL, refuseNul } from "./input-guard";

describe("isMalformedPath", () => {
  it.each(["/api/public/v1/flows/%FF", "/x/%C0%AF", "/%ED%A0%80", "/flows/plain%00rag", "/a%", "/%G1/b", "/%F0%9F%98"])(
    "refuses %s",
    (path) => expect(isMalformedPath(path)).toBe(true),
  );

  it.each(["/", "/api/public/v1/flows/plain-rag", "/caf%C3%A9", "/%F0%9F%98%80", "/a%2Fb", "/%25FF", "/a%20b"])(
    "accepts %s",
    (path) => expect(isMalformedPath(path)).toBe(false),
  );
});

describe("hasNul / refuseNul", () => {
  it("finds U+0000 in nested values and keys", () => {
    expect(hasNul({ a: [{ b: "x\u0000" }] })).toBe(true);
    expect(hasNul({ "k\u0000": 1 })).toBe(true);
    expect(hasNul({ a: ["fine", 1, null, { b: true }] })).toBe(false);
  });

  it("walks only plain objects and arrays, not streams, headers or buffers", () => {
    expect(hasNul({ upload: { headers: new Headers({ a: "b" }), body: Buffer.from([0, 0]) } })).toBe(false);
  });

  it("throws a 400 AppError with the contract's text", () => {
    expect(() => refuseNul({ q: "\u0000" })).toThrow(new AppError("BAD_REQUEST", NUL_DETAIL));
    expect(refuseNul({ q: "ok" })).toEqual({ q: "ok" });
  });
});

describe("the proxy's matcher", () => {
  // The proxy sees an API path only when its matcher says so: every path isMalformedPath refuses must match it.
  it("covers every malformed escape", async () => {
    const { config } = await import("../proxy");
    const sources = config.matcher.filter((m) => !("has" in m) && !("missing" in m)).map((m) => m.source);
    expect(sources).toHaveLength(1);
    const matcher = new RegExp(`^${sources[0]}$`);
    const chars = [..."0123456789abcdefABCDEFgG%/-"];
    const escapes = ["", ...chars, ...chars.flatMap((a) => chars.map((b) => a + b))];
    const tails = escapes.flatMap((e) => [`%${e}`, `%${e}%80`, `%C3${e ? `%${e}` : ""}`]);
    const missed = tails.map((t) => `/api/x/a${t}`).filter((p) => isMalformedPath(p) && !matcher.test(p));
    expect(missed).toEqual([]);
  });
});
