import type { ChunkRow } from "./chunk-row";
import { Prisma } from "../generated/prisma/client";
import { isUuid } from "../ids";
import type { EmbeddingIndexRef } from "./embedding-index";
import { BM25_DOCUMENT, BM25_INDEX } from "./keyword-engine";
import { FULL_TEXT_QUERY, keywordQueryCte, type CommonLexemes } from "./keyword-query";

/**
 * All retrieval SQL: one statement per search. It checks the scope (the project's ready chunk sets, narrowed to the
 * given chunk sets or sources), takes the nearest chunks by vector (HNSW) and the best by keyword (BM25 or full
 * text), fuses, ranks and returns the rows with their source's file name, plus the scope's counts in every row (one
 * row of nulls when nothing matched). One round trip and nothing cached that could go stale: a deleted source or a
 * newly indexed build counts from the next call on.
 *
 * Every part is filtered by project_id. HNSW scans run with pgvector's iterative scan (`hnsw.iterative_scan`, set in
 * the embedded server's config and in the search pool's connection options), so they keep going until enough rows
 * pass the filters; a join or semi-join in the scope would make the planner sort every vector instead (90 ms instead
 * of 4 ms at 20k chunks).
 */

/** The question for the keyword engine in use; full text turns it into its tsquery inside the statement. */
export type KeywordSide =
  { engine: "bm25"; text: string } | { engine: "fulltext"; text: string; common: CommonLexemes };

export type SearchPlan = {
  projectId: string;
  /** Narrow the scope to these chunk sets (of the project). */
  chunkSetIds?: string[];
  /** Narrow the scope to the ready chunk sets of these sources (of the project). */
  sourceIds?: string[];
  /**
   * A RAPTOR tree (flow node index) whose summaries are searched with the chunks. Without it, summary rows are never
   * candidates: chunk sets are shared by flows, and a plain search of a set must see only its documents' chunks.
   */
  nodeIndexId?: string;
  /**
   * "vector" ranks by cosine similarity, "keyword" by the keyword score, "hybrid" by both fused. Whatever the mode,
   * when a chunk set in scope holds vectors of another model than `vector.index`, the whole search is by keyword.
   */
  mode: "vector" | "keyword" | "hybrid";
  /** The query's vector and the index it is compared in; required unless the mode is "keyword". */
  vector: { literal: string; index: EmbeddingIndexRef } | null;
  keyword: KeywordSide;
  /** Weight of cosine similarity in the hybrid score; the keyword score gets the rest. */
  vectorWeight: number;
  /** Candidates taken from each side. */
  pool: number;
  /** Rows returned. */
  limit: number;
  /** At most one chunk per source. */
  distinctDocuments: boolean;
};

/** A chunk with its scores, or (id null) the scope's set counts when nothing matched. */
export type SearchRow = Omit<ChunkRow, "id"> & {
  sets: number;
  stale_sets: number;
  id: string | null;
  level: number;
  similarity: number | null;
  keyword: number | null;
  score: number;
};

const uuids = (ids: string[]) => {
  if (!ids.every(isUuid)) throw new Error("Scope ids must be UUIDs");
  return ids;
};

/**
 * The keyword side for the engine in use: the score a candidate gets from the keyword scan, the match condition and
 * the ranking of that scan, and the score of a candidate the scan did not return.
 */
const keywordParts = (side: KeywordSide) => {
  if (side.engine === "bm25") {
    const document = Prisma.raw(BM25_DOCUMENT.replace(/\b(title|heading|text)\b/g, "c.$1"));
    // The score in the select list must equal the ORDER BY expression but come from a second parameter: then the
    // parser keeps both, the planner folds both to the same constant, and pg_textsearch's planner hook serves the
    // selected score from the index scan (1.5 ms for 50 rows) instead of re-scoring each row alone (~100 ms).
    // pg_textsearch scores with a negative sign so that its index can serve an ascending ORDER BY: `sign` undoes it.
    return {
      scan: Prisma.sql`${document} <@> to_bm25query(${side.text}, ${BM25_INDEX})`,
      sign: -1,
      match: Prisma.sql`true`,
      order: Prisma.sql`${document} <@> to_bm25query(${side.text}, ${BM25_INDEX})`,
      // Scoring a chunk outside an index scan costs about a millisecond each: a vector candidate the BM25 scan did
      // not return counts as no keyword match.
      outside: Prisma.sql`0::float8`,
    };
  }
  // ts_rank normalization 1 (divide by 1 + log(length)) ranked best of the ts_rank forms on SciFact train.
  // Each function given a chunk's tsvector reads it again from TOAST (about 1.3 kB compressed, three buffers): the
  // scan's rows all match, so ts_rank alone scores them once and the scan orders by that output column. Written as
  // the CASE below in the select list and ts_rank again in ORDER BY, each match was read three times. A chunk from
  // outside the scan keeps the `@@` check: ts_rank counts any of the query's lexemes, also where a phrase of a
  // hyphenated word does not match.
  const tsQuery = FULL_TEXT_QUERY;
  return {
    scan: Prisma.sql`ts_rank(c.tsv, ${tsQuery}, 1)::float8`,
    sign: 1,
    match: Prisma.sql`c.tsv @@ ${tsQuery}`,
    order: Prisma.sql`keyword DESC`,
    outside: Prisma.sql`CASE WHEN c.tsv @@ ${tsQuery} THEN ts_rank(c.tsv, ${tsQuery}, 1)::float8 ELSE 0 END`,
  };
};

/**
 * Full-text matches ranked at most: ts_rank reads each match's tsvector, so ranking every match made a query's cost
 * grow with the corpus. Matches past this many (in the order the GIN bitmap yields them) are not ranked.
 */
export const MAX_RANKED_MATCHES = 2000;

/**
 * The keyword scan. BM25's index yields its best rows first (bounded by the LIMIT); full text ranks the matches,
 * at most MAX_RANKED_MATCHES of them.
 */
const keywordCte = (
  plan: SearchPlan,
  kw: ReturnType<typeof keywordParts>,
  scope: Prisma.Sql,
  useKeyword: Prisma.Sql,
) => {
  const filter = Prisma.sql`WHERE ${scope} AND ${useKeyword} AND ${kw.match}`;
  const matches =
    plan.keyword.engine === "bm25"
      ? Prisma.sql`chunks c ${filter}`
      : Prisma.sql`(SELECT c.id, c.tsv FROM chunks c ${filter} LIMIT ${MAX_RANKED_MATCHES}) c`;
  return Prisma.sql`SELECT c.id, ${kw.scan} AS keyword FROM ${matches} ORDER BY ${kw.order} LIMIT ${plan.pool}`;
};

/** Which chunks a search sees: the project's searchable chunks, narrowed to the plan's chunk sets or sources. */
const scopeParts = (plan: SearchPlan) => {
  const { projectId } = plan;
  // Flow chunking nodes' sets are searched only when named: a search of the project or of sources means the
  // sources' own chunks, never a flow's copies of them.
  const setNarrow = Prisma.sql`${
    plan.chunkSetIds
      ? Prisma.sql`AND cs.id = ANY(${uuids(plan.chunkSetIds)}::uuid[])`
      : Prisma.sql`AND cs.owner_kind = 'source_build'`
  } ${plan.sourceIds ? Prisma.sql`AND cs.source_id = ANY(${uuids(plan.sourceIds)}::uuid[])` : Prisma.empty}`;
  // The chunk sets whose chunks a search must skip: those still being written and, unless chunk sets are named, the
  // flows' copies. Each part is an index range (chunk_sets (project_id, status, …) and (project_id, owner_kind)), so
  // it reads only those few rows: written as one OR, the planner read every chunk set of the project on every search
  // (one per source: 5,183 rows at SciFact's size), and the cost of a query grew with the number of documents.
  // `<` and `>` instead of `<>`, which no index serves. UNION ALL: an id listed twice excludes the same chunks, and
  // removing duplicates cost a plan step.
  const excluded = plan.chunkSetIds
    ? Prisma.sql`SELECT cs.id FROM chunk_sets cs WHERE cs.project_id = ${projectId}::uuid AND cs.status = 'building'`
    : Prisma.sql`SELECT cs.id FROM chunk_sets cs WHERE cs.project_id = ${projectId}::uuid AND cs.status = 'building'
      UNION ALL SELECT cs.id FROM chunk_sets cs WHERE cs.project_id = ${projectId}::uuid AND cs.owner_kind < 'source_build'
      UNION ALL SELECT cs.id FROM chunk_sets cs WHERE cs.project_id = ${projectId}::uuid AND cs.owner_kind > 'source_build'`;
  const chunkNarrow = Prisma.sql`${
    plan.chunkSetIds ? Prisma.sql`AND c.chunk_set_id = ANY(${uuids(plan.chunkSetIds)}::uuid[])` : Prisma.empty
  } ${plan.sourceIds ? Prisma.sql`AND c.source_id = ANY(${uuids(plan.sourceIds)}::uuid[])` : Prisma.empty}`;
  // Chunks are searchable unless their chunk set is still being written: the few unfinished sets are excluded, so the
  // check costs the same with ten chunk sets or a hundred thousand. The project and that check sit behind coalesce(),
  // which the planner can neither match to an index nor estimate (it assumes half the rows pass): it walks the BM25 or
  // HNSW index and filters as it goes, both indexes scanning on until enough rows pass. Left in plain sight, it
  // guessed a few dozen rows, fetched those first and scored every one alone (500 ms for 860 chunks with BM25).
  // A caller's narrower scope (chunk sets, sources) stays plain and indexable: a few documents are best fetched first.
  // Summary rows (node_index_id set) are filtered on the same index scan: no join, nothing for the planner to
  // estimate, and the latency of a plain search does not move (bench/retrieval.ts compares it with raw SQL).
  const summaries = plan.nodeIndexId
    ? Prisma.sql`(c.node_index_id IS NULL OR c.node_index_id = ${uuids([plan.nodeIndexId])[0]}::uuid)`
    : Prisma.sql`c.node_index_id IS NULL`;
  const scope = Prisma.sql`coalesce(c.project_id = ${projectId}::uuid
    AND c.chunk_set_id <> ALL((SELECT unfinished FROM scope)::uuid[]) AND ${summaries}, false) ${chunkNarrow}`;
  return { setNarrow, excluded, scope };
};

/** The vector side: the nearest chunks by the query's vector, their similarity, and chunk sets of another model. */
const vectorParts = (plan: SearchPlan, setNarrow: Prisma.Sql, scope: Prisma.Sql) => {
  const { projectId, vector, mode } = plan;
  let vectorCte = Prisma.sql`SELECT NULL::uuid AS id, NULL::float8 AS similarity WHERE false`;
  let similarity = Prisma.sql`NULL::float8`;
  // Ready chunk sets in scope whose vectors are not all of the query's model (a set switches when fully embedded).
  let stale = Prisma.sql`0`;
  if (vector && mode !== "keyword") {
    const { index } = vector;
    if (!isUuid(index.id) || !Number.isInteger(index.dimension)) throw new Error("Invalid embedding index");
    const dim = Prisma.raw(String(index.dimension));
    const indexId = Prisma.raw(`'${index.id}'::uuid`); // a literal, so the planner can use the partial HNSW index
    const vec = Prisma.sql`${vector.literal}::vector(${dim})`;
    const distance = Prisma.sql`c.embedding::vector(${dim}) <=> ${vec}`;
    // Three index ranges instead of `IS DISTINCT FROM`, which no index serves.
    stale = Prisma.sql`(SELECT count(*) FROM (
      SELECT 1 FROM chunk_sets cs WHERE cs.project_id = ${projectId}::uuid AND cs.status = 'ready'
        AND (cs.embedding_index_id IS NULL OR cs.embedding_index_id < ${indexId} OR cs.embedding_index_id > ${indexId})
        ${setNarrow}
      LIMIT 10000) x)::int`;
    vectorCte = Prisma.sql`
      SELECT c.id, (1 - (${distance}))::float8 AS similarity FROM chunks c
      WHERE ${scope} AND c.embedding_index_id = ${indexId} AND (SELECT stale FROM scope) = 0
      ORDER BY ${distance} LIMIT ${plan.pool}`;
    similarity = Prisma.sql`CASE WHEN (SELECT stale FROM scope) = 0 AND c.embedding_index_id = ${indexId}
      THEN (1 - (${distance}))::float8 END`;
  }
  return { vectorCte, similarity, stale };
};

export const searchSql = (plan: SearchPlan): Prisma.Sql => {
  const { projectId, vector, mode } = plan;
  if (mode !== "keyword" && !vector) throw new Error(`A ${mode} search needs the query's vector`);
  const { setNarrow, excluded, scope } = scopeParts(plan);
  // Even a vector search needs the keyword side when a chunk set in scope has vectors of another model: those are
  // never compared with this model's query vector, so keyword search serves instead.
  const kw = keywordParts(plan.keyword);
  const useKeyword = mode === "vector" ? Prisma.sql`(SELECT stale FROM scope) > 0` : Prisma.sql`true`;

  const { vectorCte, similarity, stale } = vectorParts(plan, setNarrow, scope);
  const similarityScore = Prisma.sql`greatest(coalesce(s.similarity, 0), 0)`;
  const wanted =
    mode === "keyword"
      ? Prisma.sql`s.keyword`
      : mode === "vector"
        ? similarityScore
        : Prisma.sql`${plan.vectorWeight}::float8 * ${similarityScore} + ${1 - plan.vectorWeight}::float8 * s.keyword`;
  const fused = Prisma.sql`CASE WHEN (SELECT stale FROM scope) = 0 THEN ${wanted} ELSE s.keyword END`;
  const distinct = plan.distinctDocuments ? Prisma.sql`DISTINCT ON (f.source_id)` : Prisma.empty;
  const distinctOrder = plan.distinctDocuments ? Prisma.sql`f.source_id,` : Prisma.empty;

  // The steps below are nested subqueries, not a chain of CTEs: Postgres inlined each such CTE (each is read once)
  // by walking the whole statement to find its one reference, and those walks were about a sixth of the planning.
  // The plan is the same either way. (The keyword scan must stay in the main plan tree, never a MATERIALIZED CTE:
  // pg_textsearch's planner hook only reaches scans there, not in CTE subplans.)
  const candidates = Prisma.sql`
    SELECT coalesce(v.id, k.id) AS id, v.similarity, k.keyword
    FROM (${vectorCte}) v FULL JOIN (${keywordCte(plan, kw, scope, useKeyword)}) k ON k.id = v.id`;
  // OFFSET 0 keeps this a subquery of its own: pulled up into the next, which names raw_keyword three times, the keyword
  // score of each vector candidate (two reads of its TOASTed tsvector with full text) was computed three times.
  const scored = Prisma.sql`
    SELECT c.id, c.source_id, c.position,
      coalesce(x.similarity, ${similarity}) AS similarity,
      CASE WHEN ${useKeyword} THEN coalesce(${kw.sign}::float8 * x.keyword, ${kw.outside}) END AS raw_keyword
    FROM (${candidates}) x JOIN chunks c ON c.id = x.id
    WHERE c.project_id = ${projectId}::uuid
    OFFSET 0`;
  // Keyword scores relative to the best of this query, so they lie in [0, 1] like cosine similarity.
  const normalized = Prisma.sql`
    SELECT id, source_id, position, similarity,
      CASE WHEN raw_keyword IS NULL THEN NULL
           ELSE coalesce(greatest(raw_keyword, 0) / nullif(max(raw_keyword) OVER (), 0), 0) END AS keyword
    FROM (${scored}) scored`;
  const fusedRows = Prisma.sql`
    SELECT s.id, s.source_id, s.position, s.similarity, s.keyword, (${fused})::float8 AS score FROM (${normalized}) s`;
  const ranked = Prisma.sql`SELECT ${distinct} f.* FROM (${fusedRows}) f ORDER BY ${distinctOrder} f.score DESC, f.position`;
  const top = Prisma.sql`SELECT * FROM (${ranked}) ranked ORDER BY score DESC LIMIT ${plan.limit}`;

  return Prisma.sql`
    WITH ${keywordQueryCte(plan.keyword)}
    scope AS MATERIALIZED (
      SELECT
        (EXISTS (SELECT 1 FROM chunk_sets cs WHERE cs.project_id = ${projectId}::uuid AND cs.status = 'ready' ${setNarrow}))::int AS sets,
        ${stale} AS stale,
        coalesce((SELECT array_agg(x.id) FROM (${excluded}) x), '{}') AS unfinished
    )
    SELECT scope.sets, scope.stale AS stale_sets, c.id, c.chunk_set_id, c.source_id, src.file_name, c.text, c.title,
      c.heading, c.page_number, c.position, c.element_ids, c.metadata, c.level, t.similarity, t.keyword, t.score
    FROM scope
    LEFT JOIN (${top}) t ON true
    LEFT JOIN chunks c ON c.id = t.id
    LEFT JOIN sources src ON src.id = c.source_id AND src.project_id = ${projectId}::uuid
    ORDER BY t.score DESC NULLS LAST, src.file_name, c.position`;
};
