import { getEmbedder } from "../providers/embedding";
import type { ChatModel } from "../providers/chat";
import type { AdvanceResult, IndexInput } from "../index-builders/types";
import type { Community } from "./communities";
import { extractLocal } from "./extract-local";
import { extractWithModel } from "./extract-model";
import { runOffThread, yieldToEventLoop } from "../concurrency/cpu-thread";
import { askSameEntity, mergeCandidates, mergeGraph, MERGE_CHECKS_PER_STEP, tally } from "./merge";
import * as store from "./store";
import { summariseExtractive, summariseWithModel } from "./summarise";
import type { GraphCheckpoint } from "./types";

/**
 * One step of a graph build (the graph-rag NodeIndexBuilder's `advance`). Stages, each resumable from the
 * checkpoint: extract (a batch of chunks per step) → merge (the model's yes/no on close names, a few pairs per step)
 * → write (the merged graph, batched inserts) → embed (entity vectors) → communities (recursive Louvain) →
 * summarise (a few communities per step). Every write is keyed or replaces what the same step wrote, so a step
 * redone after a crash changes nothing; extraction skips chunks already extracted, so a resumed build never pays for
 * a chunk twice.
 */

/** Steps an extraction may take; MAX_INDEX_STEPS (800) leaves room for the later stages. */
const EXTRACT_STEPS = 200;
/** Chunks per step at least: with a model each costs two calls, without one a few milliseconds. */
const MIN_BATCH = { model: 4, local: 50 };
/** Entities embedded per step: 2,048 take about 2 s with the local embedder (SciFact: 85k entities, 42 steps). */
const EMBED_BATCH = 2048;
const SUMMARIES_PER_STEP = { model: 8, local: 200 };

export const extractBatchSize = (chunks: number, withModel: boolean) =>
  Math.max(withModel ? MIN_BATCH.model : MIN_BATCH.local, Math.ceil(chunks / EXTRACT_STEPS));

type Args = { index: IndexInput; checkpoint: GraphCheckpoint; model: ChatModel | null };

const step = (checkpoint: GraphCheckpoint, progress: number, label: string): AdvanceResult => ({
  done: false,
  checkpoint,
  progress,
  step: label,
});

const extract = async ({ index, checkpoint, model }: Args, scope: store.Scope) => {
  const total = await store.chunkCount(scope, index.chunkSetIds);
  const size = extractBatchSize(total, !!model);
  const next = checkpoint.next ?? 0;
  const chunks = await store.chunksOf(scope, index.chunkSetIds, next, size);
  const done = await store.extractedChunkIds(
    scope,
    chunks.map((c) => c.id),
  );
  for (const chunk of chunks) {
    if (done.has(chunk.id)) continue;
    const extraction = model ? await extractWithModel(model, chunk.text) : await extractLocal(chunk.text);
    await store.saveExtraction(scope, next, chunk.id, extraction);
  }
  const reached = next + chunks.length;
  if (chunks.length === 0 || reached >= total) return step({ stage: "merge" }, 70, `extract ${total}/${total} chunks`);
  return step({ stage: "extract", next: reached }, (70 * reached) / total, `extract ${reached}/${total} chunks`);
};

const merge = async ({ index, checkpoint, model }: Args, scope: store.Scope) => {
  if (!model) return step({ stage: "write" }, 75, "merge");
  const rows = await store.allExtractions(scope, index.chunkSetIds);
  const tallies = tally(rows);
  const candidates = mergeCandidates(tallies, true);
  const decisions = [...(checkpoint.decisions ?? [])];
  for (const pair of candidates.slice(decisions.length, decisions.length + MERGE_CHECKS_PER_STEP))
    decisions.push(await askSameEntity(model, tallies, pair));
  const label = `merge checks ${decisions.length}/${candidates.length}`;
  if (decisions.length >= candidates.length) return step({ stage: "write", decisions }, 80, label);
  return step({ stage: "merge", decisions }, 70 + (10 * decisions.length) / candidates.length, label);
};

const write = async ({ index, checkpoint, model }: Args, scope: store.Scope) => {
  const rows = await store.allExtractions(scope, index.chunkSetIds);
  // Seconds of work each at SciFact's size (6.5k chunks: 2, 4 and 6 s): the server answers between them.
  const tallies = tally(rows);
  await yieldToEventLoop();
  const candidates = mergeCandidates(tallies, !!model);
  await yieldToEventLoop();
  const merges = model ? candidates.filter((_, i) => checkpoint.decisions?.[i] === true) : candidates;
  const graph = mergeGraph(rows, tallies, merges);
  await yieldToEventLoop();
  await store.writeGraph(scope, graph.entities, graph.relationships);
  return step({ stage: "embed" }, 82, `graph: ${graph.entities.length} entities`);
};

const embed = async (scope: store.Scope) => {
  const embedder = getEmbedder();
  const rows = await store.unembeddedEntities(scope, embedder.model, EMBED_BATCH);
  if (!rows.length) return step({ stage: "communities" }, 88, "embed entities");
  const vectors = await embedder.embed(rows.map((r) => `${r.name}: ${r.description}`.slice(0, 2000)));
  await store.storeVectors(
    scope,
    "graph_entities",
    embedder.model,
    rows.map((r, i) => ({ id: r.id, vector: vectors[i]! })),
  );
  return step({ stage: "embed" }, 85, "embed entities");
};

const communities = async (scope: store.Scope) => {
  const { entities, relationships } = await store.graphEdges(scope);
  // A minute of Louvain at SciFact's size (85k entities, 661k relationships): not on the thread that serves HTTP.
  const found = await runOffThread<Community[]>("server/graph-rag/communities.ts", "detectCommunities", [
    entities,
    relationships,
  ]);
  await store.writeCommunities(scope, found);
  return step({ stage: "summarise" }, 90, `communities: ${found.length}`);
};

const summarise = async ({ index, model }: Args, scope: store.Scope): Promise<AdvanceResult> => {
  const todo = await store.unsummarised(scope, model ? SUMMARIES_PER_STEP.model : SUMMARIES_PER_STEP.local);
  if (todo.length) {
    // Only this step's communities: the whole graph (661k relationships at SciFact's size) was read every step.
    const { entities, relationships } = await store.edgesAmong(scope, [...new Set(todo.flatMap((c) => c.entityIds))]);
    const byId = new Map(entities.map((e) => [e.id, e]));
    const embedder = getEmbedder();
    const written: { id: string; vector: number[] }[] = [];
    const texts: string[] = [];
    for (const c of todo) {
      const members = new Set(c.entityIds);
      const input = {
        entities: c.entityIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
        relationships: relationships
          .filter((r) => members.has(r.sourceId) && members.has(r.targetId))
          .map((r) => ({ ...r, source: byId.get(r.sourceId)!.name, target: byId.get(r.targetId)!.name })),
      };
      const { title, summary } = model ? await summariseWithModel(model, input) : summariseExtractive(input);
      await store.saveSummary(scope, c.id, title, summary || title);
      written.push({ id: c.id, vector: [] });
      texts.push(`${title}. ${summary}`.slice(0, 4000));
    }
    const vectors = await embedder.embed(texts);
    await store.storeVectors(
      scope,
      "graph_communities",
      embedder.model,
      written.map((w, i) => ({ id: w.id, vector: vectors[i]! })),
    );
    const counts = await store.communityCounts(scope);
    const done = counts.leaves - counts.pending;
    return step(
      { stage: "summarise" },
      90 + (9 * done) / Math.max(1, counts.leaves),
      `summarise ${done}/${counts.leaves} communities`,
    );
  }
  const [graph, counts, chunks] = await Promise.all([
    store.graphCounts(scope),
    store.communityCounts(scope),
    store.chunkCount(scope, index.chunkSetIds),
  ]);
  return {
    done: true,
    checkpoint: { stage: "summarise" },
    progress: 100,
    step: "ready",
    counts: {
      total_chunks: chunks,
      total_entities: graph.entities,
      total_relationships: graph.relationships,
      total_communities: counts.total,
      community_levels: counts.levels,
    },
  };
};

export const advanceGraph = async (args: Args): Promise<AdvanceResult> => {
  const scope = { projectId: args.index.projectId, indexId: args.index.id };
  switch (args.checkpoint.stage ?? "extract") {
    case "extract":
      return extract(args, scope);
    case "merge":
      return merge(args, scope);
    case "write":
      return write(args, scope);
    case "embed":
      return embed(scope);
    case "communities":
      return communities(scope);
    case "summarise":
      return summarise(args, scope);
  }
};
