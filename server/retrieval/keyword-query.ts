import { db } from "../db";

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

let stats: { at: number; frequency: Map<string, number> } | null = null;

const lexemeFrequencies = async (): Promise<Map<string, number>> => {
  if (stats && Date.now() - stats.at < STATS_TTL_MS) return stats.frequency;
  const rows = await db.$queryRaw<{ elems: string[] | null; freqs: number[] | null }[]>`
    SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
    FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'chunks' AND attname = 'tsv'`;
  const { elems, freqs } = rows[0] ?? { elems: null, freqs: null };
  const frequency = new Map((elems ?? []).map((lexeme, i) => [lexeme, freqs?.[i] ?? 0]));
  // No statistics yet (a fresh database): ask again next time rather than going without them for minutes.
  if (frequency.size > 0) stats = { at: Date.now(), frequency };
  return frequency;
};

const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

/** A tsquery text for to_tsquery('simple', …), or null when the question has no searchable word. */
export const keywordTsQuery = async (query: string): Promise<string | null> => {
  const rows = await db.$queryRaw<{ lexeme: string }[]>`
    SELECT unnest(tsvector_to_array(to_tsvector('english', ${query.slice(0, 2000)}))) AS lexeme`;
  const lexemes = rows.map((r) => r.lexeme).slice(0, 32);
  if (lexemes.length === 0) return null;
  const frequency = await lexemeFrequencies();
  const rare = lexemes.filter((l) => (frequency.get(l) ?? 0) <= COMMON_FREQUENCY);
  // A question made only of common words keeps its rarest ones.
  const kept = rare.length
    ? rare
    : [...lexemes].sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0)).slice(0, 3);
  return kept.map(quoteLexeme).join(" | ");
};

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
