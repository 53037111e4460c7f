import { db } from "../db";
import { resolveDimension, type Embedder } from "../providers/embedding";
import { Prisma } from "../generated/prisma/client";
import { isUuid } from "../ids";

export type EmbeddingIndexRef = { id: string; dimension: number };

/** pgvector's HNSW limit for `vector` columns. */
const MAX_HNSW_DIMENSION = 2000;

const ensured = new Map<string, Promise<EmbeddingIndexRef>>();

/** SQL of the HNSW index one embedding model gets: a partial index on a typed cast of the untyped vector column. */
export const hnswIndexSql = ({ id, dimension }: EmbeddingIndexRef) => {
  if (!isUuid(id) || !Number.isInteger(dimension) || dimension < 1) {
    throw new Error(`Invalid embedding index ${id}/${dimension}`);
  }
  if (dimension > MAX_HNSW_DIMENSION) {
    throw new Error(
      `Embeddings of ${dimension} dimensions cannot be indexed (pgvector's HNSW takes at most ${MAX_HNSW_DIMENSION}); ` +
        `set EMBEDDING_DIMENSIONS to ${MAX_HNSW_DIMENSION} or less`,
    );
  }
  const name = `chunks_embedding_hnsw_${id.replace(/-/g, "").slice(0, 16)}`;
  return Prisma.raw(
    `CREATE INDEX IF NOT EXISTS "${name}" ON chunks USING hnsw ((embedding::vector(${dimension})) vector_cosine_ops) ` +
      `WHERE embedding_index_id = '${id}'::uuid`,
  );
};

/**
 * The index the current embedder writes to and searches: one row per (provider, model, dimension) and its own HNSW
 * index. A new model gets a new index, so vectors of two models are never compared.
 */
export const ensureEmbeddingIndex = (embedder: Embedder) => {
  const key = `${embedder.provider}/${embedder.model}/${embedder.dimension}`;
  let pending = ensured.get(key);
  if (!pending) {
    pending = (async () => {
      const { provider, model } = embedder;
      const dimension = await resolveDimension(embedder);
      const row = await db.embeddingIndex.upsert({
        where: { provider_model_dimension: { provider, model, dimension } },
        create: { provider, model, dimension },
        update: {},
      });
      const ref = { id: row.id, dimension: row.dimension };
      await db.$executeRaw(hnswIndexSql(ref));
      return ref;
    })();
    pending.catch(() => ensured.delete(key));
    ensured.set(key, pending);
  }
  return pending;
};

/**
 * Vectors are written as pgvector text literals: "[0.1,0.2,...]". pgvector keeps single-precision floats, and nine
 * significant digits give back the same single-precision value: a double's seventeen only made every chunk's vector
 * 40 % longer on the wire and in the parser. The digits go out as toPrecision writes them (a trailing zero or an
 * exponent is the same number to pgvector): turning them back into a number to print it again was 1-2 % of the app's
 * CPU per search. Zero, frequent in hashed vectors, stays one character.
 */
const component = (v: number) => (v === 0 || !Number.isFinite(v) ? "0" : Math.fround(v).toPrecision(9));
export const toVectorLiteral = (vector: number[]) => `[${vector.map(component).join(",")}]`;
