import { afterAll, beforeAll, expect, it } from "vitest";
import { setRuntimeEnv } from "@/server/env";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../postgres/embedded-postgres";
import { applyMigrations } from "../postgres/migrate";

/** Common lexemes are left out of the full-text query once statistics exist; rare ones stay. */

let server: EmbeddedPostgres;

beforeAll(async () => {
  server = await startEmbeddedPostgres({ port: 0 });
  await applyMigrations({ url: server.url });
  setRuntimeEnv("DATABASE_URL", server.url);
});
afterAll(async () => {
  const { disconnectDb } = await import("../db");
  await disconnectDb();
  await server?.stop();
});

it("drops lexemes found in most chunks once ANALYZE has run, and keeps the rarest when all are common", async () => {
  const { db } = await import("../db");
  const { commonLexemes, fullTextQuerySql, refreshChunkStatistics } = await import("./keyword-query");
  // The tsquery the search statement builds, as text.
  const keywordTsQuery = async (text: string) =>
    (
      await db.$queryRaw<
        { q: string | null }[]
      >`SELECT q::text FROM (${fullTextQuerySql(text, await commonLexemes())}) x`
    )[0]!.q;
  // Before any statistics every lexeme counts.
  expect(await keywordTsQuery("quarry granite")).toBe("'granit' | 'quarri'"); // tsvector order: sorted
  expect(await keywordTsQuery("the of and")).toBeNull();

  const { ensureProject } = await import("../projects/service");
  const project = await ensureProject("kw");
  const source = await db.source.create({
    data: { projectId: project.id, fileName: "a.txt", fileType: "txt", fileSize: 0, fileSource: "local file" },
  });
  const chunkSet = await db.chunkSet.create({ data: { projectId: project.id, sourceId: source.id } });
  await db.chunk.createMany({
    data: Array.from({ length: 2500 }, (_, i) => ({
      projectId: project.id,
      sourceId: source.id,
      chunkSetId: chunkSet.id,
      position: i,
      text: `Quarry report ${i}: the quarry face was surveyed${i === 7 ? " and granite was found" : ""}.`,
    })),
  });
  // Postgres publishes a backend's row counts at most once a second: asked sooner, the writes do not show yet.
  await expect.poll(() => refreshChunkStatistics(), { timeout: 10_000, interval: 250 }).toBe(true);

  expect(await keywordTsQuery("quarry granite")).toBe("'granit'");
  expect(await keywordTsQuery("quarry report")).toMatch(/^'(quarri|report)'( \| '(quarri|report)')?$/);
});

it("sends the common lexemes as array literals the server reads back exactly, quotes and backslashes included", async () => {
  const { db } = await import("../db");
  const { commonLiterals } = await import("./keyword-query");
  const common = {
    lexemes: ['say"s', "back\\slash", "a,b", "{brace}", "two words", "null", ""],
    frequencies: [0.5, 1e-7, 0.03, 0.021, 1, 0.2, 0.25],
  };
  const { lexemes, frequencies } = commonLiterals(common);
  const [row] = await db.$queryRaw<
    { l: string[]; f: number[] }[]
  >`SELECT ${lexemes}::text[] AS l, ${frequencies}::float8[] AS f`;
  expect(row!.l).toEqual(common.lexemes);
  expect(row!.f).toEqual(common.frequencies);
  expect(commonLiterals(common)).toBe(commonLiterals(common)); // made once per statistics read
});
