import { toOrTsQuery } from "@/server/retrieval/vector-search";

/**
 * The hybrid candidate query of server/retrieval/vector-search.ts as plain SQL text, to time Postgres alone.
 * Keep it in step with hybridCandidates.
 */
export const rawHybridSql = ({
  projectId,
  index,
  vector,
  query,
}: {
  projectId: string;
  index: { id: string; dimension: number };
  vector: string;
  query: string;
}) => {
  const d = index.dimension;
  const scope = `c.project_id = $1::uuid AND c.build_id IN (SELECT s.indexed_build_id FROM sources s
    WHERE s.project_id = $1::uuid AND s.indexed_build_id IS NOT NULL)`;
  return {
    text: `WITH q AS (SELECT to_tsquery('english', $3) AS tq),
      by_vector AS (SELECT c.id FROM chunks c WHERE ${scope} AND c.embedding_index_id = '${index.id}'::uuid
        ORDER BY c.embedding::vector(${d}) <=> $2::vector(${d}) LIMIT 50),
      by_keyword AS (SELECT c.id FROM chunks c, q WHERE ${scope} AND c.tsv @@ q.tq ORDER BY ts_rank_cd(c.tsv, q.tq, 32) DESC LIMIT 50)
      SELECT c.id, 1 - (c.embedding::vector(${d}) <=> $2::vector(${d})) AS similarity, ts_rank_cd(c.tsv, q.tq, 32) AS keyword
      FROM chunks c, q WHERE c.id IN (SELECT id FROM by_vector UNION SELECT id FROM by_keyword)`,
    values: [projectId, vector, toOrTsQuery(query) ?? "x"],
  };
};
