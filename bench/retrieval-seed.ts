import pg from "pg";
import type { EmbeddingIndexRef } from "@/server/retrieval/embedding-index";
import type { KeywordEngine } from "@/server/retrieval/keyword-engine";
import { time } from "./stats";

/**
 * Bulk data for the latency and scale benches: copies of a template project's chunk sets (SciFact ingested through
 * the pipeline, or synthetic documents), each copy a source and a ready chunk set of its own, with text, title and
 * heading as the pipeline wrote them. A copy's vector is its chunk's vector plus another chunk's (a different partner
 * in every round): copies of the very same vectors would form clusters of near-twins, which no real corpus has and
 * which make HNSW recall meaningless (at 100k: 0.54 at ef_search 100 against exact search by distance).
 * The search indexes are dropped before a load and built after it, as for any bulk import; their build times are
 * figures of their own.
 */

const withClient = async <T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};

export const hnswName = (sql: string) => /INDEX IF NOT EXISTS "([^"]+)"/.exec(sql)![1]!;

/** The full-text engine's GIN index over chunks.tsv, as the init migration creates it. */
export const FULLTEXT_INDEX = "chunks_tsv_idx";
const FULLTEXT_INDEX_SQL = `CREATE INDEX IF NOT EXISTS "${FULLTEXT_INDEX}" ON chunks USING GIN (tsv)`;

type Indexes = { databaseUrl: string; index: EmbeddingIndexRef; engine?: KeywordEngine };

/** The keyword engine's index name and statement: BM25 (pg_textsearch), or the full-text fallback's GIN index. */
export const keywordIndex = async (engine: KeywordEngine) => {
  const { BM25_INDEX, BM25_INDEX_SQL } = await import("@/server/retrieval/keyword-engine");
  return engine === "bm25"
    ? { name: BM25_INDEX, sql: BM25_INDEX_SQL }
    : { name: FULLTEXT_INDEX, sql: FULLTEXT_INDEX_SQL };
};

export const dropSearchIndexes = async ({ databaseUrl, index, engine = "bm25" }: Indexes) => {
  const { hnswIndexSql } = await import("@/server/retrieval/embedding-index");
  const keyword = await keywordIndex(engine);
  await withClient(databaseUrl, async (client) => {
    await client.query(`DROP INDEX IF EXISTS "${hnswName(hnswIndexSql(index).sql)}"`);
    await client.query(`DROP INDEX IF EXISTS "${keyword.name}"`);
  });
};

/** Builds the HNSW index and the keyword engine's index; `keywordMs` is BM25's build or the GIN index's. */
export const buildSearchIndexes = async ({ databaseUrl, index, engine = "bm25" }: Indexes) => {
  const { hnswIndexSql } = await import("@/server/retrieval/embedding-index");
  const keyword = await keywordIndex(engine);
  return withClient(databaseUrl, async (client) => {
    // pgvector builds the graph in memory while it fits in maintenance_work_mem (64 MB by default, about 50k of these
    // vectors), then far more slowly on disk. A bulk load's one-off build may take more, as a DBA would give it.
    await client.query("SET maintenance_work_mem = '1GB'").catch(() => undefined);
    const [, hnswMs] = await time(() => client.query(hnswIndexSql(index).sql));
    await client.query("RESET maintenance_work_mem").catch(() => undefined);
    const [, keywordMs] = await time(() => client.query(keyword.sql));
    await client.query("ANALYZE chunks");
    return { hnswMs, keywordMs };
  });
};

/** Adds copies of the template's chunk sets to `projectId` until it holds about `total` chunks; returns the count. */
export const copyChunks = async ({
  databaseUrl,
  projectId,
  templateProjectId,
  total,
}: {
  databaseUrl: string;
  projectId: string;
  templateProjectId: string;
  total: number;
}) =>
  withClient(databaseUrl, async (client) => {
    const count = async () =>
      Number((await client.query("SELECT count(*) AS n FROM chunks WHERE project_id = $1", [projectId])).rows[0].n);
    const { rows } = await client.query(
      "SELECT count(*)::int AS sets, sum(chunk_count)::int AS chunks FROM chunk_sets WHERE project_id = $1 AND status = 'ready'",
      [templateProjectId],
    );
    const perSet = rows[0].chunks / rows[0].sets;
    for (let have = await count(), round = 0; have < total; have = await count(), round++) {
      const sets = Math.max(1, Math.min(rows[0].sets, Math.round((total - have) / perSet)));
      await client.query(
        `WITH m AS (
           SELECT cs.id AS old_set, gen_random_uuid() AS new_set, cs.source_id AS old_source, gen_random_uuid() AS new_source
           FROM chunk_sets cs WHERE cs.project_id = $2 AND cs.status = 'ready' ORDER BY cs.id LIMIT $3
         ), t AS MATERIALIZED (
           SELECT c.*, row_number() OVER (ORDER BY c.id) - 1 AS n FROM chunks c WHERE c.project_id = $2
         ), s AS (
           INSERT INTO sources (id, project_id, file_name, file_type, file_size, file_source, status, updated_at)
           SELECT m.new_source, $1, 'copy-' || $4 || '-' || src.file_name, src.file_type, src.file_size, 'local file', 'Completed', now()
           FROM m JOIN sources src ON src.id = m.old_source
         ), cs AS (
           INSERT INTO chunk_sets (id, project_id, owner_kind, source_id, config, embedding_index_id, status, chunk_count, updated_at)
           SELECT m.new_set, $1, 'source_build', m.new_source, t.config, t.embedding_index_id, 'ready', t.chunk_count, now()
           FROM m JOIN chunk_sets t ON t.id = m.old_set
         )
         INSERT INTO chunks (id, project_id, source_id, chunk_set_id, position, text, title, heading, page_number,
                             element_ids, metadata, embedding_index_id, embedding)
         SELECT gen_random_uuid(), $1, m.new_source, m.new_set, c.position, c.text, c.title, c.heading, c.page_number,
                c.element_ids, c.metadata, c.embedding_index_id, c.embedding + p.embedding
         FROM m JOIN t c ON c.chunk_set_id = m.old_set
         JOIN t p ON p.n = (c.n + $5) % (SELECT count(*) FROM t)`,
        [projectId, templateProjectId, sets, `${total}-${round}`, 1 + ((round * 7919 + total) % 100_003)],
      );
    }
    return count();
  });
