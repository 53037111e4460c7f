/**
 * The four RAGAS quality metrics as formulas over verdicts (pure; the judge or the gold labels give the verdicts).
 * Definitions, from the RAGAS documentation (docs.ragas.io, "Available metrics"):
 *
 * - Context precision (`contextual_precision`): "Context Precision@K = Σ_{k=1..K} (Precision@k × v_k) / total number
 *   of relevant items in the top K results", where Precision@k = true positives@k / k and v_k ∈ {0, 1} is the
 *   relevance of the item at rank k. It rewards relevant passages ranked first.
 * - Context recall (`contextual_recall`): "claims in the reference supported by the retrieved context / number of
 *   claims in the reference". Its non-LLM form with reference ids (RAGAS `IDBasedContextRecall`): reference ids found
 *   among the retrieved ids / number of reference ids.
 * - Faithfulness (`faithfulness`): "number of claims in the response supported by the retrieved context / total
 *   number of claims in the response".
 * - Answer relevancy (`answer_relevancy`): "the mean cosine similarity of the original user input to a number of
 *   artificial questions, which were generated (reverse engineered) based on the response"; RAGAS scores a
 *   noncommittal answer ("I don't know") 0.
 *
 * Every metric is a number in [0, 1] or null; null always comes with the reason, never a guess.
 */

/** How a value was obtained: the judge model, exact gold labels, or not at all. */
export type MetricForm = "judge" | "gold-file-ids" | "gold-passages" | "none";

export type MetricResult = {
  value: number | null;
  form: MetricForm;
  reason: string;
  /** Per-item verdicts or generated questions, for the per-case table. */
  details?: unknown;
};

export const unavailable = (reason: string): MetricResult => ({ value: null, form: "none", reason });

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Context precision@K over the relevance of the ranked items (v_1..v_K); null when nothing was retrieved. */
export const contextPrecision = (relevant: boolean[]): number | null => {
  if (!relevant.length) return null;
  let hits = 0;
  let sum = 0;
  relevant.forEach((v, i) => {
    if (!v) return;
    hits += 1;
    sum += hits / (i + 1);
  });
  return hits ? sum / hits : 0;
};

/** A share of verdicts that hold (recall's attributed claims, faithfulness' supported claims); null without any. */
export const shareTrue = (verdicts: boolean[]): number | null =>
  verdicts.length ? verdicts.filter(Boolean).length / verdicts.length : null;

export const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

/**
 * Answer relevancy: mean cosine similarity between the question and the generated questions, 0 for a noncommittal
 * answer. Cosine can be negative with some embedders; the score is clamped to [0, 1] like the contract's range.
 */
export const answerRelevancy = (question: number[], generated: number[][], noncommittal: boolean): number | null => {
  if (!generated.length) return null;
  if (noncommittal) return 0;
  return clamp01(generated.reduce((s, g) => s + cosine(question, g), 0) / generated.length);
};

/** nDCG@10 of ranked document ids against the gold set (binary relevance), as BEIR reports it. */
export const ndcgAt10 = (ranked: string[], relevant: Set<string>) => {
  const dcg = ranked.slice(0, 10).reduce((s, id, i) => s + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(10, relevant.size) }, (_, i) => 1 / Math.log2(i + 2)).reduce(
    (a, b) => a + b,
    0,
  );
  return ideal ? dcg / ideal : 0;
};

/** Lowercased, whitespace collapsed: passages match across line breaks and spacing. */
export const normalizeText = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

/** A retrieved text holds a gold passage (or is wholly inside it, when chunks are smaller than the passage). */
export const matchesPassage = (retrieved: string, passage: string) => {
  const r = normalizeText(retrieved);
  const p = normalizeText(passage);
  return !!p && !!r && (r.includes(p) || p.includes(r));
};

export type RetrievedRef = { fileId: string; text: string };

/**
 * Context precision and recall from gold labels, exact: a retrieved item is relevant when its document is a gold
 * file id (form `gold-file-ids`), else when it holds a gold passage (`gold-passages`). Recall is the share of gold
 * documents (or passages) found among the retrieved items.
 */
export const goldPrecisionRecall = (
  items: RetrievedRef[],
  gold: { fileIds: string[]; passages: string[] },
): { precision: MetricResult; recall: MetricResult } | null => {
  const byFiles = gold.fileIds.length > 0;
  if (!byFiles && !gold.passages.length) return null;
  const form: MetricForm = byFiles ? "gold-file-ids" : "gold-passages";
  const label = byFiles ? "gold relevant documents" : "gold relevant passages";
  const fileSet = new Set(gold.fileIds);
  const relevant = items.map((item) =>
    byFiles ? fileSet.has(item.fileId) : gold.passages.some((p) => matchesPassage(item.text, p)),
  );
  const hits = relevant.filter(Boolean).length;
  const precision = contextPrecision(relevant);
  const found = byFiles
    ? gold.fileIds.filter((id) => items.some((i) => i.fileId === id)).length
    : gold.passages.filter((p) => items.some((i) => matchesPassage(i.text, p))).length;
  const total = byFiles ? gold.fileIds.length : gold.passages.length;
  return {
    precision:
      precision === null
        ? { value: null, form, reason: "nothing was retrieved" }
        : {
            value: precision,
            form,
            reason: `${hits} of ${items.length} retrieved passages are ${byFiles ? "from " : ""}${label}${
              hits ? ` (ranks ${relevant.flatMap((v, i) => (v ? [i + 1] : [])).join(", ")})` : ""
            }`,
            details: relevant,
          },
    recall: {
      value: found / total,
      form,
      reason: `${found} of ${total} ${label} ${found === 1 ? "was" : "were"} retrieved`,
    },
  };
};

/** Mean of the non-null values, with how many there were. */
export const meanOf = (values: (number | null | undefined)[]) => {
  const present = values.filter((v): v is number => typeof v === "number");
  return {
    mean: present.length ? present.reduce((a, b) => a + b, 0) / present.length : null,
    n: present.length,
    nulls: values.length - present.length,
  };
};
