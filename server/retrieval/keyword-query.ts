import { db } from "../db";
import { Prisma } from "../generated/prisma/client";

/**
 * The full-text side of retrieval. Questions are OR-ed word by word (they rarely contain every word of the passage
 * they want), minus the lexemes found in more than COMMON_FREQUENCY of all chunks. Dropping those keeps the number
 * of rows to rank small (240 ms → 13 ms at 20k chunks) and acts as a crude IDF, which ts_rank lacks.
 * Frequencies come from the tsvector statistics ANALYZE keeps in pg_stats; without them nothing is dropped.
 */

const COMMON_FREQUENCY = 0.02;
const STATS_TTL_MS = 5 * 60_000;
/** Rows changed since the last ANALYZE before indexing refreshes the statistics. */
const ANALYZE_AFTER_CHANGES = 2_000;

/** The lexemes found in more than COMMON_FREQUENCY of all chunks, with their frequencies. */
export type CommonLexemes = { lexemes: string[]; frequencies: number[] };

let stats: { at: number; common: CommonLexemes } | null = null;

/** Read from pg_stats at most every STATS_TTL_MS per process, so that a search costs no round trip for them. */
export const commonLexemes = async (): Promise<CommonLexemes> => {
  if (stats && Date.now() - stats.at < STATS_TTL_MS) return stats.common;
  const rows = await db.$queryRaw<{ elems: string[] | null; freqs: number[] | null }[]>`
    SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
    FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'chunks' AND attname = 'tsv'`;
  const { elems, freqs } = rows[0] ?? { elems: null, freqs: null };
  const common: CommonLexemes = { lexemes: [], frequencies: [] };
  (elems ?? []).forEach((lexeme, i) => {
    const frequency = freqs?.[i] ?? 0;
    if (frequency <= COMMON_FREQUENCY) return;
    common.lexemes.push(lexeme);
    common.frequencies.push(frequency);
  });
  // No statistics yet (a fresh database): ask again next time rather than going without them for minutes.
  if (elems?.length) stats = { at: Date.now(), common };
  return common;
};

/**
 * The common lexemes as Postgres array literals, made once per statistics read. Passed as arrays, the driver
 * serialised SciFact's 812 lexemes and their frequencies again for every search (about 5 % of the app's CPU per
 * query); the server parses the literal instead, which it did anyway. Elements are quoted as array_in reads them.
 */
const literals = new WeakMap<CommonLexemes, { lexemes: string; frequencies: string }>();
const quoted = (element: string) => `"${element.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
export const commonLiterals = (common: CommonLexemes) => {
  let made = literals.get(common);
  if (!made) {
    made = {
      lexemes: `{${common.lexemes.map(quoted).join(",")}}`,
      frequencies: `{${common.frequencies.map(String).join(",")}}`,
    };
    literals.set(common, made);
  }
  return made;
};

/** The question's tsquery in the search statement: computed once there, by keywordQueryCte. */
export const FULL_TEXT_QUERY = Prisma.sql`(SELECT q FROM keyword_query)`;

/**
 * The question's tsquery, worked out inside the search statement (no round trip of its own): its first 32 lexemes
 * (to_tsvector('english'), sorted) OR-ed, minus the common ones; a question made only of common words keeps its
 * three rarest. NULL when the question has no searchable word, which matches nothing. Each lexeme is quoted for
 * to_tsquery('simple') (backslash and quote doubled).
 */
export const fullTextQuerySql = (text: string, common: CommonLexemes) => {
  const { lexemes, frequencies } = commonLiterals(common);
  return Prisma.sql`
  SELECT to_tsquery('simple',
    string_agg('''' || replace(replace(q.lexeme, chr(92), chr(92) || chr(92)), '''', '''''') || '''', ' | ' ORDER BY q.n)) AS q
  FROM (
    SELECT w.lexeme, w.n, f.freq IS NULL AS rare, bool_or(f.freq IS NULL) OVER () AS any_rare,
      row_number() OVER (ORDER BY coalesce(f.freq, 0), w.n) AS rarity
    FROM unnest(tsvector_to_array(to_tsvector('english', ${text.slice(0, 2000)}))) WITH ORDINALITY AS w(lexeme, n)
    LEFT JOIN unnest(${lexemes}::text[], ${frequencies}::float8[]) AS f(lexeme, freq)
      ON f.lexeme = w.lexeme
    WHERE w.n <= 32
  ) q
  WHERE q.rare OR (NOT q.any_rare AND q.rarity <= 3)`;
};

/** The CTE FULL_TEXT_QUERY reads, first in the search statement's WITH list; nothing for BM25. */
export const keywordQueryCte = (
  side: { engine: "bm25" } | { engine: "fulltext"; text: string; common: CommonLexemes },
) =>
  side.engine === "fulltext"
    ? Prisma.sql`keyword_query AS MATERIALIZED (${fullTextQuerySql(side.text, side.common)}),`
    : Prisma.empty;

/** The chunk columns queries filter or join on, and `tsv` for its lexeme statistics. */
const ANALYZED_COLUMNS = [
  "project_id",
  "source_id",
  "chunk_set_id",
  "build_id",
  "embedding_index_id",
  "node_index_id",
  "level",
  "position",
  "page_number",
  "tsv",
];

/** Chunks this process wrote since it last asked how many rows changed: the question is a statement of its own. */
let writtenSinceCheck = 0;

/**
 * Embedded Postgres has no autovacuum, so statistics are refreshed here, after a build changed the chunks, when
 * enough rows changed since the last ANALYZE (a real Postgres' autovacuum usually got there first). The database is
 * asked only once this process has written a share of that many chunks, not after every small document.
 */
export const refreshChunkStatistics = async (written = ANALYZE_AFTER_CHANGES) => {
  writtenSinceCheck += written;
  if (writtenSinceCheck < ANALYZE_AFTER_CHANGES / 4) return false;
  writtenSinceCheck = 0;
  const rows = await db.$queryRaw<{ changed: bigint | null }[]>`
    SELECT n_mod_since_analyze AS changed FROM pg_stat_user_tables WHERE relname = 'chunks'`;
  if (Number(rows[0]?.changed ?? 0) < ANALYZE_AFTER_CHANGES) return false;
  // A sample of 9,000 rows (statistics target 30) instead of 30,000: ANALYZE reads and detoasts every sampled row's
  // text and vector while the embedded database serves no one else (1-1.5 s at 20 MiB of text); on 60,000 chunks
  // the smaller sample took a third to a seventh of the time. The planner needs only the filter columns' spread,
  // and keyword search the lexeme frequencies of `tsv`: the text, vector and JSON columns are left out, whose
  // copies grew the embedded database's memory (which never shrinks) by 26 MB at 20 MiB of text.
  // chunk_sets too (a row per source): with statistics from when the project had a few sources, the planner read the
  // scope's few stale or unfinished sets through the (project_id, owner_kind) index, filtering every set of the
  // project on each search (13 ms of a 15 ms statement at 1,200 sources), instead of the status index's ranges.
  await db.$transaction([
    db.$executeRaw`SET LOCAL default_statistics_target = 30`,
    db.$executeRawUnsafe(`ANALYZE chunks (${ANALYZED_COLUMNS.join(", ")})`),
    db.$executeRawUnsafe("ANALYZE chunk_sets"),
  ]);
  stats = null;
  return true;
};
