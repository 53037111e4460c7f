import { db } from "../db";
import { env } from "../env";
import { errorMessage } from "../errors";
import { logger } from "../logger";

/**
 * The keyword side of retrieval has two engines:
 * - "bm25": a BM25 index (pg_textsearch) over each chunk's document title, section heading and text. The embedded
 *   Postgres always has it; an external Postgres has it when pg_textsearch is installed and preloaded.
 * - "fulltext": Postgres full text (`tsv @@ tsquery`, ranked by ts_rank), the fallback of a Postgres without a BM25
 *   extension. On SciFact train it ranks well below BM25 (see the README, "Scaling retrieval").
 *
 * The engine is chosen at start (setupKeywordEngine) and read back from the catalog by every process that searches,
 * because the launcher and the web server do not share module state.
 */

export type KeywordEngine = "bm25" | "fulltext";

export const BM25_INDEX = "chunks_bm25";
/** What BM25 indexes. Queries must repeat this exact expression for the index to serve them. */
export const BM25_DOCUMENT = "(title || ' ' || heading || ' ' || text)";

export const BM25_INDEX_SQL =
  `CREATE INDEX IF NOT EXISTS "${BM25_INDEX}" ON chunks USING bm25 (${BM25_DOCUMENT}) ` +
  // Lucene's defaults; k1 and b tuned on SciFact train moved nDCG@10 by less than 0.004 either way.
  `WITH (text_config = 'english', k1 = 1.2, b = 0.75)`;

const ENGINE_TTL_MS = 60_000;
let cached: { at: number; engine: KeywordEngine } | null = null;

const hasBm25Index = async (): Promise<boolean> => {
  const rows = await db.$queryRaw<{ ok: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM pg_index i JOIN pg_class ix ON ix.oid = i.indexrelid JOIN pg_am am ON am.oid = ix.relam
      WHERE ix.relname = ${BM25_INDEX} AND am.amname = 'bm25' AND i.indisvalid
        AND ix.relnamespace = current_schema()::regnamespace
    ) AS ok`;
  return rows[0]?.ok === true;
};

/**
 * Makes BM25 available when the database can offer it: creates the pg_textsearch extension if it is installable and
 * the BM25 index over chunks (on an existing table this is a one-time build at start). Returns the engine and, for
 * the fallback, why BM25 is not in use.
 */
export const setupKeywordEngine = async (): Promise<{ engine: KeywordEngine; reason?: string }> => {
  const chosen = await chooseKeywordEngine();
  await maintainFullText(chosen.engine);
  return chosen;
};

/**
 * The full-text column (`tsv`, kept by a trigger from title, heading and text) serves only the fallback engine. With
 * BM25 its upkeep was a third of the cost of writing a chunk, so the trigger is dropped; switching to the fallback
 * puts it back and fills the rows written meanwhile (the UPDATE fires the trigger; RAPTOR summaries stay without).
 */
const maintainFullText = async (engine: KeywordEngine) => {
  if (engine === "bm25") {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "chunks_tsv_update" ON "chunks"`);
    return;
  }
  await db.$executeRawUnsafe(
    `CREATE OR REPLACE TRIGGER "chunks_tsv_update" BEFORE INSERT OR UPDATE OF "text", "title", "heading" ON "chunks" ` +
      `FOR EACH ROW EXECUTE FUNCTION "chunks_tsv_update"()`,
  );
  await db.$executeRaw`UPDATE chunks SET text = text WHERE tsv IS NULL AND node_index_id IS NULL`;
};

const chooseKeywordEngine = async (): Promise<{ engine: KeywordEngine; reason?: string }> => {
  cached = null;
  if (env.QUARRY_KEYWORD_ENGINE === "fulltext") return { engine: "fulltext", reason: "QUARRY_KEYWORD_ENGINE=fulltext" };
  let reason: string | undefined;
  try {
    const installed = await db.$queryRaw<{ v: string }[]>`
      SELECT extversion AS v FROM pg_extension WHERE extname = 'pg_textsearch'`;
    if (installed.length === 0) {
      const available = await db.$queryRaw<{ n: number }[]>`
        SELECT 1 AS n FROM pg_available_extensions WHERE name = 'pg_textsearch'`;
      if (available.length === 0) reason = "the pg_textsearch extension is not installed in this Postgres";
      else await db.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS pg_textsearch");
    }
    if (!reason) {
      const started = performance.now();
      await db.$executeRawUnsafe(BM25_INDEX_SQL);
      const ms = Math.round(performance.now() - started);
      if (ms > 1000) logger.info({ ms }, "BM25 index built");
    }
  } catch (error) {
    // Typically: installed but not in shared_preload_libraries, or no right to create extensions.
    reason = `pg_textsearch could not be used: ${errorMessage(error)}`;
  }
  const engine: KeywordEngine = !reason && (await hasBm25Index()) ? "bm25" : "fulltext";
  if (engine === "fulltext" && env.QUARRY_KEYWORD_ENGINE === "bm25") {
    throw new Error(`QUARRY_KEYWORD_ENGINE=bm25 but BM25 is unavailable: ${reason ?? "no valid BM25 index"}`);
  }
  if (engine === "fulltext") logger.warn({ reason }, "keyword search falls back to Postgres full text (ts_rank)");
  cached = { at: Date.now(), engine };
  return { engine, ...(reason ? { reason } : {}) };
};

/** The engine keyword search uses now: BM25 when its index exists (and the setting allows it). */
export const keywordEngine = async (): Promise<KeywordEngine> => {
  if (cached && Date.now() - cached.at < ENGINE_TTL_MS) return cached.engine;
  const engine: KeywordEngine =
    env.QUARRY_KEYWORD_ENGINE !== "fulltext" && (await hasBm25Index()) ? "bm25" : "fulltext";
  cached = { at: Date.now(), engine };
  return engine;
};
