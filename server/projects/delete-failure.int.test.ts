import { afterAll, beforeAll, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * A deletion job's failure is recorded on its own attempt only: a failure that arrives after an admin's retry started
 * (a late onFailure run) must not mark the new attempt failed. The state is set by hand: a project flagged for
 * deletion on its second attempt.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await startTestDatabase();
  setRuntimeEnv("QUARRY_INIT_TOKEN", "qry_deletefailureinittoken01234");
}, 300_000);

afterAll(async () => database?.stop());

it("records a failure of the current attempt and ignores one of an earlier attempt", async () => {
  const { bootstrap } = await import("../bootstrap");
  const { db } = await import("../db");
  const { recordDeletionFailure, deletionStatus } = await import("./delete");
  await bootstrap();
  const { id } = await db.project.findFirstOrThrow();
  await db.project.update({
    where: { id },
    data: { deletingAt: new Date(), deletionStep: "chunks", deletionAttempt: 1 },
  });

  await recordDeletionFailure(id, "disk full", 0);
  expect(await deletionStatus(id)).toMatchObject({ step: "chunks", error: null });

  await recordDeletionFailure(id, "disk full", 1);
  expect(await deletionStatus(id)).toMatchObject({ step: "chunks", error: "Could not remove chunks: disk full" });
});
