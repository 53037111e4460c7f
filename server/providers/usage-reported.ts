/**
 * The tokens an embedding, rerank or speech API says a request used, from the shapes they answer with: OpenAI's
 * `usage.prompt_tokens` (embeddings) and `usage.input_tokens`/`output_tokens` (transcriptions), Jina's and vLLM's
 * `usage.total_tokens`, Cohere's `meta.billed_units`. Null when the answer says nothing (then usage is estimated).
 */

type Counts = {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  input_tokens?: unknown;
  output_tokens?: unknown;
  total_tokens?: unknown;
};

const count = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

const fromCounts = (c: Counts | undefined): { tokensIn: number; tokensOut: number } | null => {
  if (!c || typeof c !== "object") return null;
  const tokensIn = count(c.prompt_tokens) ?? count(c.input_tokens);
  const tokensOut = count(c.completion_tokens) ?? count(c.output_tokens) ?? 0;
  if (tokensIn !== null) return { tokensIn, tokensOut };
  const total = count(c.total_tokens);
  return total !== null ? { tokensIn: total, tokensOut: 0 } : null;
};

export const reportedUsage = (text: string): { tokensIn: number; tokensOut: number } | null => {
  if (!text.trimStart().startsWith("{")) return null;
  try {
    const body = JSON.parse(text) as { usage?: Counts; meta?: { billed_units?: Counts } };
    return fromCounts(body.usage) ?? fromCounts(body.meta?.billed_units);
  } catch {
    return null;
  }
};
