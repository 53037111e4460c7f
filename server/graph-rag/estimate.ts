import type { Estimate } from "../index-builders/types";
import { MAX_MERGE_CHECKS } from "./merge";

/**
 * What a graph build will spend with a chat model, before anything is called, from the chunk count and characters:
 * per chunk an extraction call and a gleaning call (the chunk, the instructions and the schema in; entities and
 * relationships out; the gleaning prompt also carries the first answer's names), the duplicate checks (a share of
 * the entities, capped like the build caps them), and one summary call per leaf community (about one per 10
 * entities). The per-call figures are averages measured on the stand-in model's prompts; a real model's answers vary
 * by tens of percent, which the budget should allow for. Model-free builds cost nothing.
 */

const INSTRUCTIONS = 450;
const EXTRACT_OUT = 350;
const GLEAN_EXTRA_IN = 120;
const GLEAN_OUT = 150;
const ENTITIES_PER_CHUNK = 5;
const MERGE_SHARE = 0.05;
const MERGE_CALL = { in: 160, out: 10 };
const ENTITIES_PER_COMMUNITY = 10;
const SUMMARY_CALL = { in: 1200, out: 200 };

export const estimateGraph = ({
  chunks,
  chars,
  model,
}: {
  chunks: number;
  chars: number;
  model: string | null;
}): Estimate => {
  if (!model || chunks === 0) return { calls: 0, tokens: 0, model };
  const chunkTokens = Math.ceil(chars / 4);
  const extract = chunks * (INSTRUCTIONS + EXTRACT_OUT) + chunkTokens;
  const glean = chunks * (INSTRUCTIONS + GLEAN_EXTRA_IN + GLEAN_OUT) + chunkTokens;
  const entities = chunks * ENTITIES_PER_CHUNK;
  const checks = Math.min(MAX_MERGE_CHECKS, Math.ceil(entities * MERGE_SHARE));
  const communities = Math.ceil(entities / ENTITIES_PER_COMMUNITY);
  return {
    calls: 2 * chunks + checks + communities,
    tokens:
      extract + glean + checks * (MERGE_CALL.in + MERGE_CALL.out) + communities * (SUMMARY_CALL.in + SUMMARY_CALL.out),
    model,
  };
};
