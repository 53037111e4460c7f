/**
 * The hybrid candidate query of server/retrieval/vector-search.ts as plain SQL text, to time Postgres alone.
 * Keep it in step with hybridCandidates.
 */
export const rawHybridSql = ({
  projectId,
  buildIds,
  index,
  vector,
  tsQuery,
}: {
  projectId: string;
  buildIds: string[];
  index: { id: string; dimension: number };
  vector: string;
  /** From keywordTsQuery, as the app computes it. */
  tsQuery: string;
}) => {
  const d = index.dimension;
  const scope = "c.project_id = $1::uuid AND c.build_id = ANY($4::uuid[])";
  return {
    text: `WITH q AS (SELECT to_tsquery('simple', $3) AS tq),
      by_vector AS (SELECT c.id FROM chunks c WHERE ${scope} AND c.embedding_index_id = '${index.id}'::uuid
        ORDER BY c.embedding::vector(${d}) <=> $2::vector(${d}) LIMIT 50),
      by_keyword AS (SELECT c.id FROM chunks c, q WHERE ${scope} AND c.tsv @@ q.tq ORDER BY ts_rank(c.tsv, q.tq, 32) DESC LIMIT 50)
      SELECT c.id, 1 - (c.embedding::vector(${d}) <=> $2::vector(${d})) AS similarity, ts_rank(c.tsv, q.tq, 32) AS keyword
      FROM chunks c, q WHERE c.id IN (SELECT id FROM by_vector UNION SELECT id FROM by_keyword)`,
    values: [projectId, vector, tsQuery, buildIds],
  };
};
