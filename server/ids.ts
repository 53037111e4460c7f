import { createHash } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any RFC 4122 shaped id. Ids from clients are checked before they reach a uuid column. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

/** The public element id: 32 lowercase hex characters, stable for a (build, position) pair. */
export const elementIdFor = (buildId: string, position: number): string =>
  createHash("sha256").update(`${buildId}:${position}`).digest("hex").slice(0, 32);
