import { randomBytes } from "node:crypto";
import { db } from "../db";
import { env } from "../env";

const SETTING = "auth_secret";

/**
 * The key that signs session cookies. QUARRY_AUTH_SECRET when set; otherwise one generated on first use and kept in
 * the database, so a fresh install needs no configuration and every app instance on the same database agrees.
 */
export const authSecret = async (): Promise<string> => {
  if (env.QUARRY_AUTH_SECRET) return env.QUARRY_AUTH_SECRET;
  // Insert-if-missing then read: concurrent first starts end up with the same value.
  await db.instanceSetting.createMany({
    data: [{ key: SETTING, value: randomBytes(32).toString("base64url") }],
    skipDuplicates: true,
  });
  const row = await db.instanceSetting.findUniqueOrThrow({ where: { key: SETTING } });
  return row.value;
};
