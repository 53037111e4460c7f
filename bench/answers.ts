/**
 * Answers bench (`BENCH_ONLY=answers npm run bench`).
 * 1. Citation precision of the local extractive answerer on SciFact train claims: of the chunks an answer cites, the
 *    share that belong to a document judged relevant to the claim. Next to it, in the same run, the precision of
 *    the retrieved context itself (every chunk the answerer saw) and of the top hit alone: the answerer should cite
 *    more precisely than its context, and not worse than "cite the best hit".
 * 2. Time to first token and to the whole answer of a streamed ask with a model (the local stand-in answering
 *    after 200 ms, then a word every 10 ms), next to the stand-in's own times called directly: the difference is
 *    what Quarry adds (conversation, retrieval, prompt, marker filtering).
 * Runs in process on the bench's embedded Postgres; SciFact is read from ../shared/eval (train only).
 */
import { loadSciFact } from "./scifact";

const QUERIES = Number(process.env.BENCH_ANSWER_QUERIES ?? 200);
const DISTRACTORS = Number(process.env.BENCH_ANSWER_DISTRACTORS ?? 1500);
const TIMING_RUNS = 20;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const citationPrecision = async (say: (line: string) => void) => {
  const sf = loadSciFact();
  if (!sf) return "answers: SciFact not found (../shared/eval/scifact); citation precision skipped";
  const { ensureProject } = await import("@/server/projects/service");
  const { indexDocuments } = await import("@/server/testing/index-documents");
  const { retrieveForLevel } = await import("@/server/answers/retrieval-plan");
  const { generateAnswer } = await import("@/server/answers/generate");
  const { db } = await import("@/server/db");
  const queries = sf.queries.slice(0, QUERIES);
  // The relevant documents of these claims plus a fixed slice of others, so retrieval has to choose.
  const wanted = new Set(queries.flatMap((q) => [...sf.qrels.get(q.id)!]));
  const docs = [
    ...sf.docs.filter((d) => wanted.has(d.id)),
    ...sf.docs.filter((d) => !wanted.has(d.id)).slice(0, DISTRACTORS),
  ];
  const project = await ensureProject(`bench-answers-${Date.now()}`);
  say(`answers: indexing ${docs.length} SciFact documents…`);
  const indexed = await indexDocuments({
    projectId: project.id,
    documents: docs.map((d) => ({ fileName: `scifact-${d.id}.md`, content: `# ${d.title}\n\n${d.text}\n` })),
  });
  const docOf = new Map(indexed.map((s, i) => [s.sourceId, docs[i]!.id]));
  const tally = { cited: 0, citedRelevant: 0, context: 0, contextRelevant: 0, top: 0, topRelevant: 0, nothing: 0 };
  for (const level of ["fast", "accurate"] as const) {
    Object.keys(tally).forEach((k) => (tally[k as keyof typeof tally] = 0));
    for (const q of queries) {
      const relevant = sf.qrels.get(q.id)!;
      const isRelevant = (sourceId: string) => relevant.has(docOf.get(sourceId) ?? "");
      const { chunks } = await retrieveForLevel({ level, model: null, projectId: project.id, query: q.text });
      const answer = await generateAnswer({ question: q.text, chunks, modelId: null });
      if (!answer.citations.length) tally.nothing++;
      for (const c of answer.citations) {
        tally.cited++;
        if (isRelevant(c.fileId!)) tally.citedRelevant++;
      }
      for (const c of chunks) {
        tally.context++;
        if (isRelevant(c.sourceId)) tally.contextRelevant++;
      }
      if (chunks[0]) {
        tally.top++;
        if (isRelevant(chunks[0].sourceId)) tally.topRelevant++;
      }
    }
    say(
      `answers (${level}, ${queries.length} SciFact train claims, ${docs.length} documents): citation precision ` +
        `${pct(tally.citedRelevant / (tally.cited || 1))} (${tally.cited} citations) | reference: context precision ` +
        `${pct(tally.contextRelevant / (tally.context || 1))}, top hit ${pct(tally.topRelevant / (tally.top || 1))} | ` +
        `"found nothing" ${tally.nothing}`,
    );
  }
  await db.project.delete({ where: { id: project.id } });
  return "";
};

const streamingTimes = async () => {
  const { startFakeChatServer } = await import("@/server/testing/fake-chat-server");
  const { setRuntimeEnv } = await import("@/server/env");
  const { ensureProject } = await import("@/server/projects/service");
  const { indexDocuments } = await import("@/server/testing/index-documents");
  const { askSources } = await import("@/server/answers/ask");
  const { openAiCompatibleModel } = await import("@/server/providers/chat/openai-compatible");
  const { db } = await import("@/server/db");
  const chat = await startFakeChatServer();
  chat.setStreamDelay(200, 10);
  const project = await ensureProject(`bench-stream-${Date.now()}`);
  await indexDocuments({
    projectId: project.id,
    documents: Array.from({ length: 50 }, (_, i) => ({
      fileName: `doc-${i}.md`,
      content: `# Report ${i}\n\nSite ${i} quarries granite from bench ${i}. The crew of site ${i} cuts blocks with wire saws and tests each block for strength before it leaves.\n`,
    })),
  });
  setRuntimeEnv("LLM_PROVIDER", "openai");
  setRuntimeEnv("LLM_BASE_URL", chat.baseUrl);
  setRuntimeEnv("LLM_MODEL", "stand-in-chat");
  const model = openAiCompatibleModel({
    id: "stand-in-chat",
    provider: "openai-compatible",
    baseUrl: chat.baseUrl,
    nativeJsonSchema: false,
  });
  const direct = { first: [] as number[], whole: [] as number[] };
  const quarry = { first: [] as number[], whole: [] as number[] };
  try {
    for (let i = 0; i < TIMING_RUNS; i++) {
      const question = `How does the crew of site ${i} cut blocks?`;
      let t0 = performance.now();
      let first = 0;
      const messages = [
        {
          role: "user" as const,
          content: `Context passages:\n\n[1] (doc-${i}.md)\nThe crew of site ${i} cuts blocks with wire saws.\n\nQuestion: ${question}`,
        },
      ];
      for await (const part of model.stream({ messages }))
        if (part.type === "text" && !first) first = performance.now() - t0;
      direct.first.push(first);
      direct.whole.push(performance.now() - t0);
      t0 = performance.now();
      first = 0;
      await askSources({
        projectId: project.id,
        question,
        thinkingLevel: "fast",
        onEvent: (e) => {
          if (e.type === "token" && !first) first = performance.now() - t0;
        },
      });
      quarry.first.push(first);
      quarry.whole.push(performance.now() - t0);
    }
  } finally {
    setRuntimeEnv("LLM_PROVIDER", "local");
    await chat.close();
    await db.project.delete({ where: { id: project.id } });
  }
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  return (
    `answers streaming (median of ${TIMING_RUNS}, fast, stand-in model 200 ms + 10 ms/word): ask time to first token ` +
    `${ms(median(quarry.first))}, whole answer ${ms(median(quarry.whole))} | reference: the model alone ` +
    `${ms(median(direct.first))} / ${ms(median(direct.whole))}`
  );
};

export const benchAnswers = async () => {
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    process.stderr.write(`${line}\n`);
  };
  await citationPrecision(say);
  lines.push(await streamingTimes());
  return lines.filter((l) => !l.endsWith("…")).join("\n");
};
