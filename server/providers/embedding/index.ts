import { env } from "../../env";
import { createLocalEmbedder } from "./local-embedder";
import { createOpenAIEmbedder } from "./openai-embedder";
import type { Embedder } from "./types";

export type { Embedder } from "./types";
export { LOCAL_EMBEDDING_DIMENSION, LOCAL_EMBEDDING_MODEL } from "./local-embedder";

let cached: { key: string; embedder: Embedder } | null = null;

/** The embedder the environment configures (EMBEDDING_*), built once and reused while the configuration holds. */
export const getEmbedder = (): Embedder => {
  const key = [
    env.EMBEDDING_PROVIDER,
    env.EMBEDDING_BASE_URL,
    env.EMBEDDING_MODEL,
    env.EMBEDDING_DIMENSIONS,
    env.EMBEDDING_API_KEY ?? "",
  ].join("|");
  if (cached?.key === key) return cached.embedder;
  const embedder =
    env.EMBEDDING_PROVIDER === "openai"
      ? createOpenAIEmbedder({
          baseUrl: env.EMBEDDING_BASE_URL,
          apiKey: env.EMBEDDING_API_KEY,
          model: env.EMBEDDING_MODEL,
          dimensions: env.EMBEDDING_DIMENSIONS,
        })
      : createLocalEmbedder();
  cached = { key, embedder };
  return embedder;
};

/**
 * The embedder's vector length, asking the provider once when neither configuration nor the model name tells it
 * (self-hosted models). Call before creating a vector index for the embedder.
 */
export const resolveDimension = async (embedder: Embedder): Promise<number> => {
  if (embedder.dimension > 0) return embedder.dimension;
  const [vector] = await embedder.embed(["dimension probe"]);
  return vector?.length ?? 0;
};
