import { afterEach, describe, expect, it, vi } from "vitest";

/** Cookie attributes follow the public URL: Secure (with the __Secure- prefix) exactly when browsers use https. */

const cookiesFor = async (publicUrl: string | undefined) => {
  vi.resetModules();
  vi.stubEnv("QUARRY_AUTH_SECRET", "x".repeat(40));
  vi.stubEnv("QUARRY_PUBLIC_URL", publicUrl ?? "");
  // The Prisma client is built (the adapter reads its data model) but never connects here.
  vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:9/unused");
  const { setRuntimeEnv } = await import("../env");
  setRuntimeEnv("QUARRY_AUTH_SECRET", "x".repeat(40)); // drops the env cache
  (globalThis as { quarryAuth?: unknown }).quarryAuth = undefined;
  const { getAuth } = await import("./auth");
  const context = await (await getAuth()).$context;
  return context.authCookies.sessionToken;
};

afterEach(() => {
  vi.unstubAllEnvs();
  (globalThis as { quarryAuth?: unknown }).quarryAuth = undefined;
});

describe("session cookie", () => {
  it("is Secure with the __Secure- prefix behind https", async () => {
    const cookie = await cookiesFor("https://quarry.example.com");
    expect(cookie.name).toBe("__Secure-quarry.session_token");
    expect(cookie.attributes).toMatchObject({ secure: true, httpOnly: true, sameSite: "lax" });
  });

  it("is HttpOnly and SameSite=Lax but not Secure over plain http, where a browser would drop it", async () => {
    const cookie = await cookiesFor(undefined);
    expect(cookie.name).toBe("quarry.session_token");
    expect(cookie.attributes).toMatchObject({ httpOnly: true, sameSite: "lax" });
    expect(cookie.attributes.secure).toBeFalsy();
  });
});
