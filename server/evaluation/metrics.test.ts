import { describe, expect, it } from "vitest";
import {
  answerRelevancy,
  contextPrecision,
  cosine,
  goldPrecisionRecall,
  matchesPassage,
  meanOf,
  ndcgAt10,
  shareTrue,
} from "./metrics";

/** The RAGAS formulas (server/evaluation/metrics.ts), checked against values worked out by hand. */

describe("context precision", () => {
  it("is the mean of precision@k over the relevant ranks", () => {
    // Relevant at ranks 1 and 3: (1/1 + 2/3) / 2.
    expect(contextPrecision([true, false, true])).toBeCloseTo((1 + 2 / 3) / 2);
    // RAGAS' own example: one relevant passage ranked second scores 0.5.
    expect(contextPrecision([false, true])).toBe(0.5);
    expect(contextPrecision([true, true, true])).toBe(1);
  });
  it("is 0 when nothing relevant was retrieved, null when nothing was", () => {
    expect(contextPrecision([false, false])).toBe(0);
    expect(contextPrecision([])).toBeNull();
  });
});

describe("claim shares (context recall, faithfulness)", () => {
  it("counts the claims that hold", () => {
    expect(shareTrue([true, false, true, true])).toBe(0.75);
    expect(shareTrue([])).toBeNull();
  });
});

describe("answer relevancy", () => {
  it("is the mean cosine similarity of the question to the generated questions", () => {
    const q = [1, 0];
    expect(
      answerRelevancy(
        q,
        [
          [1, 0],
          [0, 1],
        ],
        false,
      ),
    ).toBeCloseTo(0.5);
    expect(answerRelevancy(q, [[2, 0]], false)).toBeCloseTo(1);
  });
  it("scores a noncommittal answer 0, clamps negative similarity and is null without questions", () => {
    expect(answerRelevancy([1, 0], [[1, 0]], true)).toBe(0);
    expect(answerRelevancy([1, 0], [[-1, 0]], false)).toBe(0);
    expect(answerRelevancy([1, 0], [], false)).toBeNull();
    expect(cosine([0, 0], [1, 0])).toBe(0);
  });
});

describe("gold labels", () => {
  const items = [
    { fileId: "a", text: "Granite is cut with wire saws." },
    { fileId: "b", text: "Marble is polished." },
    { fileId: "c", text: "Basalt  is\ncrushed for gravel. It is dark." },
  ];
  it("gives exact precision and recall from relevant file ids", () => {
    const r = goldPrecisionRecall(items, { fileIds: ["c", "z"], passages: [] })!;
    expect(r.precision).toMatchObject({ value: 1 / 3, form: "gold-file-ids" });
    expect(r.precision.reason).toBe("1 of 3 retrieved passages are from gold relevant documents (ranks 3)");
    expect(r.recall).toMatchObject({
      value: 0.5,
      form: "gold-file-ids",
      reason: "1 of 2 gold relevant documents was retrieved",
    });
  });
  it("matches relevant passages across case and spacing", () => {
    expect(matchesPassage(items[2]!.text, "basalt is crushed for gravel.")).toBe(true);
    const r = goldPrecisionRecall(items, { fileIds: [], passages: ["basalt is crushed for gravel", "slate splits"] })!;
    expect(r.precision).toMatchObject({ value: 1 / 3, form: "gold-passages" });
    expect(r.recall.value).toBe(0.5);
  });
  it("is null without labels, and precision is null when nothing was retrieved", () => {
    expect(goldPrecisionRecall(items, { fileIds: [], passages: [] })).toBeNull();
    const r = goldPrecisionRecall([], { fileIds: ["a"], passages: [] })!;
    expect(r.precision).toMatchObject({ value: null, reason: "nothing was retrieved" });
    expect(r.recall.value).toBe(0);
  });
});

describe("aggregates and nDCG", () => {
  it("averages only present values", () => {
    expect(meanOf([1, null, 0.5, undefined])).toEqual({ mean: 0.75, n: 2, nulls: 2 });
    expect(meanOf([null])).toEqual({ mean: null, n: 0, nulls: 1 });
  });
  it("computes nDCG@10 with binary relevance", () => {
    expect(ndcgAt10(["a", "b"], new Set(["a"]))).toBe(1);
    expect(ndcgAt10(["b", "a"], new Set(["a"]))).toBeCloseTo(1 / Math.log2(3));
    expect(ndcgAt10(["b"], new Set())).toBe(0);
  });
});
