import { db } from "../db";

/**
 * Reads the public flow service needs that no other flows module offers (its router used to run them itself).
 * editor.ts keeps a private copy of latestRevision; it can import this one once the flows refactor lands.
 */

/** The flow's newest revision (the last deploy, whatever its status), or null before the first deploy. */
export const latestRevision = (flowId: string) =>
  db.flowRevision.findFirst({ where: { flowId }, orderBy: { number: "desc" } });
