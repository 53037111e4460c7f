/** Turns texts into vectors. One instance per provider/model; `dimension` is the length of every vector. */
export type Embedder = {
  provider: string;
  model: string;
  /**
   * Vector length. An OpenAI-compatible model without a configured or known dimension reports 0 until its first
   * response; call `resolveDimension` (server/providers/embedding) before relying on it.
   */
  dimension: number;
  embed: (texts: string[]) => Promise<number[][]>;
};
