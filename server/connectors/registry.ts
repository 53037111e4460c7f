import { githubConnector } from "./github";
import type { AcquireContext, Connector, OriginKind, OriginOf } from "./types";
import { webConnector } from "./web";
import { youtubeConnector } from "./youtube";

/** Every connector; typed by the origin kinds (origin.ts), so a new kind does not compile until its connector exists. */
export const CONNECTORS: { [K in OriginKind]: Connector<K> } = {
  web: webConnector,
  github: githubConnector,
  youtube: youtubeConnector,
};

/** Runs the connector of the origin's kind (`kind` is the origin's, passed apart so TypeScript pairs the two). */
export const acquireOrigin = <K extends OriginKind>(kind: K, origin: OriginOf<K>, ctx: AcquireContext) =>
  CONNECTORS[kind].acquire(origin, ctx);
