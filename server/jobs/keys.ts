import { randomBytes } from "node:crypto";

/** Keys a launcher generates per deployment when jobs run on the local executor. */

/** A signing key in Inngest's format (`signkey-<env>-<hex>`), for a deployment whose executor is local. */
export const generateSigningKey = () => `signkey-local-${randomBytes(32).toString("hex")}`;

/** An event key for `inngest.send()` to the local executor. */
export const generateEventKey = () => randomBytes(24).toString("hex");
