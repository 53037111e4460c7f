import pg from "pg";

/**
 * Recall@10 of the vector side as searches run it (HNSW with the search connections' settings) against exact nearest
 * neighbours (the same query with index scans off: every vector read and sorted), over the project's chunks.
 */

const K = 10;

const nearestSql = (dimension: number) => `
  SELECT c.id FROM chunks c
  WHERE c.project_id = $1::uuid AND c.embedding_index_id = $2::uuid AND c.node_index_id IS NULL
  ORDER BY c.embedding::vector(${dimension}) <=> $3::vector(${dimension}) LIMIT ${K}`;

export const vectorRecall = async ({
  databaseUrl,
  options,
  projectId,
  index,
  vectors,
}: {
  databaseUrl: string;
  /** The search connections' startup options (server/retrieval/search-pool.ts). */
  options: string;
  projectId: string;
  index: { id: string; dimension: number };
  /** Query vectors as pgvector literals. */
  vectors: string[];
}) => {
  const approx = new pg.Client({ connectionString: databaseUrl, options });
  const exact = new pg.Client({ connectionString: databaseUrl, options });
  await approx.connect();
  await exact.connect();
  try {
    // SET rather than a startup option, which the embedded server ignores; it also shares one session between
    // connections, hence the RESET after each exact query.
    const sql = nearestSql(index.dimension);
    let found = 0;
    let wanted = 0;
    for (const vector of vectors) {
      const values = [projectId, index.id, vector];
      const got = new Set((await approx.query<{ id: string }>(sql, values)).rows.map((r) => r.id));
      await exact.query("SET enable_indexscan = off");
      const truth = (await exact.query<{ id: string }>(sql, values)).rows.map((r) => r.id);
      await exact.query("RESET enable_indexscan");
      found += truth.filter((id) => got.has(id)).length;
      wanted += truth.length;
    }
    return wanted === 0 ? null : found / wanted;
  } finally {
    await approx.end();
    await exact.end();
  }
};
