import { afterEach, describe, expect, it, vi } from "vitest";

/** The CSRF rule of the dashboard's own routes. */

const request = (headers: Record<string, string>) =>
  new Request("http://ignored/api/trpc/x", { method: "POST", headers });

const load = async (publicUrl = "") => {
  vi.resetModules();
  vi.stubEnv("QUARRY_PUBLIC_URL", publicUrl);
  const { setRuntimeEnv } = await import("../env");
  setRuntimeEnv("QUARRY_PUBLIC_URL", publicUrl);
  return import("./origin");
};

afterEach(() => vi.unstubAllEnvs());

describe("isSameOrigin", () => {
  it("accepts a page of the host the request was sent to, under any name", async () => {
    const { isSameOrigin } = await load();
    expect(isSameOrigin(request({ host: "10.0.0.5:3000", origin: "http://10.0.0.5:3000" }))).toBe(true);
    expect(
      isSameOrigin(request({ host: "quarry.lan", origin: "https://quarry.lan", "sec-fetch-site": "same-origin" })),
    ).toBe(true);
  });

  it("refuses other sites, look-alikes, opaque and missing origins, and cross-site fetch metadata", async () => {
    const { isSameOrigin } = await load();
    const host = "quarry.lan:3000";
    for (const origin of [
      "http://evil.example",
      "http://quarry.lan:3001",
      "http://quarry.lan:3000.evil.example",
      "null",
    ]) {
      expect(isSameOrigin(request({ host, origin })), origin).toBe(false);
    }
    expect(isSameOrigin(request({ host }))).toBe(false);
    expect(isSameOrigin(request({ host, origin: `http://${host}`, "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOrigin(request({ host, origin: `http://${host}`, "sec-fetch-site": "same-site" }))).toBe(false);
  });

  it("accepts the configured public URL behind a proxy that rewrites Host", async () => {
    const { isSameOrigin } = await load("https://quarry.example.com");
    expect(isSameOrigin(request({ host: "app:3000", origin: "https://quarry.example.com" }))).toBe(true);
    expect(isSameOrigin(request({ host: "app:3000", origin: "http://quarry.example.com" }))).toBe(false);
  });
});
