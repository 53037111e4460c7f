import pg from "pg";

/**
 * Copies one project's indexed corpus (sources, chunk sets, chunks and their embedding index) from one Quarry
 * database to another's project, so that the query-cost bench measures a real Postgres on the very rows the embedded
 * one was measured on without ingesting SciFact a second time (about five minutes on two quiet cores). Rows travel
 * as JSON and are re-read by json_populate_recordset, so each value goes through its type's input function (vectors
 * included); the target's full-text trigger fills `tsv` as they arrive.
 */

const BATCH = 500;

const copyTable = async (
  from: pg.Client,
  to: pg.Client,
  table: "sources" | "chunk_sets" | "chunks",
  fromProject: string,
  rewrite: (row: Record<string, unknown>) => Record<string, unknown>,
) => {
  let copied = 0;
  for (let offset = 0; ; offset += BATCH) {
    const { rows } = await from.query<{ row: Record<string, unknown> }>(
      `SELECT row_to_json(t) AS row FROM ${table} t WHERE project_id = $1 ORDER BY id LIMIT ${BATCH} OFFSET $2`,
      [fromProject, offset],
    );
    if (rows.length === 0) return copied;
    await to.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [
      JSON.stringify(rows.map((r) => rewrite(r.row))),
    ]);
    copied += rows.length;
  }
};

/** Returns the target's embedding index id (the same model's row there) and the number of chunks copied. */
export const copyCorpus = async ({
  fromUrl,
  toUrl,
  fromProject,
  toProject,
  embeddingIndexId,
}: {
  fromUrl: string;
  toUrl: string;
  fromProject: string;
  toProject: string;
  embeddingIndexId: string;
}) => {
  const from = new pg.Client({ connectionString: fromUrl });
  const to = new pg.Client({ connectionString: toUrl });
  await from.connect();
  await to.connect();
  try {
    const { rows: indexes } = await from.query("SELECT * FROM embedding_indexes WHERE id = $1", [embeddingIndexId]);
    const index = indexes[0] as { provider: string; model: string; dimension: number };
    await to.query(
      `INSERT INTO embedding_indexes (id, provider, model, dimension) VALUES ($1, $2, $3, $4)
       ON CONFLICT (provider, model, dimension) DO NOTHING`,
      [embeddingIndexId, index.provider, index.model, index.dimension],
    );
    const { rows } = await to.query<{ id: string }>(
      "SELECT id FROM embedding_indexes WHERE provider = $1 AND model = $2 AND dimension = $3",
      [index.provider, index.model, index.dimension],
    );
    const targetIndex = rows[0]!.id;
    const rewrite = (row: Record<string, unknown>) => ({
      ...row,
      project_id: toProject,
      ...("embedding_index_id" in row && row.embedding_index_id ? { embedding_index_id: targetIndex } : {}),
    });
    await copyTable(from, to, "sources", fromProject, rewrite);
    await copyTable(from, to, "chunk_sets", fromProject, rewrite);
    const chunks = await copyTable(from, to, "chunks", fromProject, rewrite);
    await to.query("ANALYZE");
    return { embeddingIndexId: targetIndex, dimension: index.dimension, chunks };
  } finally {
    await from.end();
    await to.end();
  }
};
