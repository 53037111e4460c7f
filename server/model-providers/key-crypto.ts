import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "../auth/secret";
import { env } from "../env";
import { AppError } from "../errors";
import { KEY_UNREADABLE_ERROR } from "./model-providers.schema";

/**
 * Provider API keys at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the server secret, QUARRY_SECRET_KEY
 * when set, else the secret the install already keeps for its sessions (server/auth/secret.ts), so a fresh install
 * needs no configuration. Each value carries the id of the key that sealed it: a value sealed under another secret
 * is recognised without trying it, and reported as unreadable rather than failing somewhere later. The team id is
 * bound in as associated data, so a value copied into another team's row does not open either.
 */

const VERSION = "v1";
const b64 = (bytes: Buffer) => bytes.toString("base64url");

type SealingKey = { key: Buffer; id: string };

const deriveKey = (secret: string): SealingKey => {
  const key = Buffer.from(hkdfSync("sha256", secret, "quarry", "model-provider-keys", 32));
  // A short public fingerprint of the key, not the key: tells which secret sealed a value.
  const id = b64(createHmac("sha256", key).update("key-id").digest()).slice(0, 10);
  return { key, id };
};

let cached: { secret: string; sealing: SealingKey } | null = null;

const sealingKey = async (): Promise<SealingKey> => {
  const secret = env.QUARRY_SECRET_KEY ?? (await authSecret());
  if (cached?.secret !== secret) cached = { secret, sealing: deriveKey(secret) };
  return cached.sealing;
};

const aad = (teamId: string) => Buffer.from(`model-provider:${teamId}`);

export const sealKey = async (plain: string, teamId: string): Promise<string> => {
  const { key, id } = await sealingKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad(teamId));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, id, b64(iv), b64(cipher.getAuthTag()), b64(body)].join(".");
};

/** The id of the current sealing key, to tell (without decrypting) which sealed values it opens. */
export const currentKeyId = async (): Promise<string> => (await sealingKey()).id;

/** Whether the key with id `keyId` opens a sealed value. */
export const sealedWith = (sealed: string, keyId: string): boolean => {
  const [version, id] = sealed.split(".");
  return version === VERSION && id === keyId;
};

/** The plain key, or a 409 saying the secret changed (never a 500). */
export const openKey = async (sealed: string, teamId: string): Promise<string> => {
  const [version, id, iv, tag, body] = sealed.split(".");
  const { key, id: currentId } = await sealingKey();
  if (version !== VERSION || id !== currentId || !iv || !tag || body === undefined) {
    throw new AppError("CONFLICT", KEY_UNREADABLE_ERROR);
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(aad(teamId));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new AppError("CONFLICT", KEY_UNREADABLE_ERROR);
  }
};

/**
 * What the page shows of a key: its first few characters ("sk-ab…"), never more than a quarter of it, so a short
 * key is not half given away.
 */
export const keyPrefix = (plain: string): string => `${plain.slice(0, Math.min(5, Math.floor(plain.length / 4)))}…`;
