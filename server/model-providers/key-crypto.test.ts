import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { setRuntimeEnv } from "../env";
import { currentKeyId, keyPrefix, openKey, sealKey, sealedWith } from "./key-crypto";
import { KEY_UNREADABLE_ERROR } from "./model-providers.schema";

const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
const team = randomUUID();

beforeAll(() => setRuntimeEnv("QUARRY_SECRET_KEY", "unit-test-secret-0123456789-abcdefgh"));
afterAll(() => setRuntimeEnv("QUARRY_SECRET_KEY", ""));

const unreadable = { code: "CONFLICT", message: KEY_UNREADABLE_ERROR };

describe("provider key sealing", () => {
  it("seals a key so that only its team opens it, with a fresh nonce each time", async () => {
    const sealed = await sealKey(KEY, team);
    expect(sealed).toMatch(/^v1\.[\w-]{10}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(KEY.slice(3));
    expect(await sealKey(KEY, team)).not.toBe(sealed);
    expect(await openKey(sealed, team)).toBe(KEY);
    await expect(openKey(sealed, randomUUID())).rejects.toMatchObject(unreadable);
  });

  it("refuses a tampered value as unreadable, never with an unexpected error", async () => {
    const parts = (await sealKey(KEY, team)).split(".");
    const body = Buffer.from(parts[4]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[4] = body.toString("base64url");
    await expect(openKey(parts.join("."), team)).rejects.toBeInstanceOf(AppError);
    await expect(openKey("not a sealed value", team)).rejects.toMatchObject(unreadable);
  });

  it("tells a value sealed under another secret without decrypting it", async () => {
    const sealed = await sealKey(KEY, team);
    expect(sealedWith(sealed, await currentKeyId())).toBe(true);
    setRuntimeEnv("QUARRY_SECRET_KEY", "a-different-secret-0123456789-abcdefgh");
    expect(sealedWith(sealed, await currentKeyId())).toBe(false);
    await expect(openKey(sealed, team)).rejects.toMatchObject(unreadable);
    setRuntimeEnv("QUARRY_SECRET_KEY", "unit-test-secret-0123456789-abcdefgh");
    expect(await openKey(sealed, team)).toBe(KEY);
  });

  it("shows at most five characters, and never more than a quarter of a short key", () => {
    expect(keyPrefix(KEY)).toBe("sk-pr…");
    expect(keyPrefix("gsk_12345678")).toBe("gsk…");
    expect(keyPrefix("abc")).toBe("…");
  });
});
