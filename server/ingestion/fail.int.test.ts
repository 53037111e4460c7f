import { afterAll, beforeAll, expect, it } from "vitest";
import { AppError } from "../errors";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * A build fails with whatever its error holds. A damaged .odt's part name put U+0000 into its parse error; Postgres
 * refused the text, the build could not be marked failed, and it never ended (BENCH_ONLY=hostile: 3 of 2,000).
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await startTestDatabase();
}, 120_000);

afterAll(async () => database?.stop());

it("marks a build failed even when its error holds control characters", async () => {
  const { ensureProject } = await import("../projects/service");
  const { storeParsedDocument } = await import("../testing/index-documents");
  const { failBuild } = await import("./fail");
  const { db } = await import("../db");
  const projectId = (await ensureProject("failures")).id;
  const { buildId, sourceId } = await storeParsedDocument(projectId, { fileName: "notes.txt", content: "A note." });
  const error = new AppError(
    "UNPROCESSABLE",
    'The .odt file is not a valid Office document (its part "\u0000\u0001content\u0007.xml" is damaged: unexpected EOF)',
  );

  expect(await failBuild(buildId, error)).toEqual({
    error: 'The .odt file is not a valid Office document (its part "content.xml" is damaged: unexpected EOF)',
  });
  const build = await db.build.findUniqueOrThrow({ where: { id: buildId } });
  expect(build.status).toBe("ProcessingFailed");
  expect(build.finishedAt).not.toBeNull();
  expect((await db.source.findUniqueOrThrow({ where: { id: sourceId } })).status).toBe("Failed");
});
