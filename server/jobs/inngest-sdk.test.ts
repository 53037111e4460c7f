import { createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { canonicalJson, parseRetryAfter, signBody } from "./inngest-sdk";

describe("canonicalJson", () => {
  it("matches the canonicalize package the SDK verifies signatures with", () => {
    const samples: unknown[] = [
      null,
      "x",
      1e21,
      -0,
      0.1,
      [1, undefined, "a", { b: 1, a: [null, true] }],
      { z: 1, a: { é: "ü", "\u2028": "line", A: [] }, m: undefined, "10": 1, "2": 2 },
      { date: new Date(0), nested: { emoji: "😀", escape: '"\\\n' } },
    ];
    for (const value of samples) expect(canonicalJson(value)).toBe(canonicalize(value));
  });
});

describe("signBody", () => {
  it("is t=<unix>&s=<HMAC-SHA256 of body + t> keyed with the key minus its signkey- prefix", () => {
    const body = canonicalJson({ b: 2, a: 1 });
    const sig = signBody(body, "signkey-prod-abc123", 1_700_000_000_400);
    const expected = createHmac("sha256", "abc123").update(`${body}1700000000`).digest("hex");
    expect(sig).toBe(`t=1700000000&s=${expected}`);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toISOString(), 4000)).toBe(6000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});
