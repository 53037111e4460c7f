import { Inngest } from "inngest";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

/**
 * The one Inngest client. Its settings are getters because the SDK keeps this options object and reads it on every
 * use, while `env` may only be complete after the launcher has filled in run-time values (the local executor's
 * address, the generated keys); reading them at import time would freeze whatever was set then.
 *
 * - `baseUrl` (INNGEST_BASE_URL) receives `inngest.send()` at `<baseUrl>/e/<eventKey>`: the local executor's event
 *   endpoint in local mode, the Inngest server otherwise. A trailing slash is added so a base with a path keeps it
 *   (the SDK resolves `e/<key>` relative to it).
 * - `eventKey` (INNGEST_EVENT_KEY) is required by the SDK to send in cloud mode; the local executor checks it too.
 * - `signingKey` (INNGEST_SIGNING_KEY) makes `serve()` reject requests that were not signed with it, in both modes.
 * - Dev mode (INNGEST_DEV=1, or a dev server URL) is left to the SDK, which reads INNGEST_DEV itself and in that mode
 *   accepts unsigned requests. Quarry's local mode does not need it.
 */
const withTrailingSlash = (url: string | undefined) => (url && !url.endsWith("/") ? `${url}/` : url);

export const inngest = new Inngest({
  id: "quarry",
  logger,
  get baseUrl() {
    return withTrailingSlash(env.INNGEST_BASE_URL);
  },
  get eventKey() {
    return env.INNGEST_EVENT_KEY;
  },
  get signingKey() {
    return env.INNGEST_SIGNING_KEY;
  },
});
