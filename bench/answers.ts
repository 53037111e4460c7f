/**
 * Answers bench (`BENCH_ONLY=answers npm run bench`).
 * 1. Citation precision of the local extractive answerer on SciFact train claims: of the chunks an answer cites, the
 *    share that belong to a document judged relevant to the claim. Next to it, in the same run, the precision of
 *    the retrieved context itself (every chunk the answerer saw) and of the top hit alone: the answerer should cite
 *    more precisely than its context, and not worse than "cite the best hit". Then how often it says it found
 *    nothing although the top hit is relevant (it should answer there), the share of answers whose quoted
 *    sentences are all whole sentences of the cited document (none starting or ending where a chunk was cut), the
 *    share whose markers are numbered 1..n in order of first use, and documents cited per answer; each next to the
 *    same figures of the answerer before issue 26 (bench/extractive-before.ts) on the same retrieved chunks.
 *    BENCH_ANSWER_QUERIES (default 200) claims, BENCH_ANSWER_DISTRACTORS (default 1500) other documents.
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

/** For comparing a quote with its document: spacing aside, and the Markdown emphasis the parser drops (`HLA-B*27`). */
const normal = (text: string) => text.replace(/[*_]/g, "").replace(/\s+/g, " ").trim();

type Tally = Record<
  | "cited"
  | "citedRelevant"
  | "context"
  | "contextRelevant"
  | "top"
  | "topRelevant"
  | "nothing"
  | "nothingTopRelevant"
  | "answered"
  | "wholeSentences"
  | "inOrder"
  | "documents",
  number
>;
const emptyTally = (): Tally => ({
  cited: 0,
  citedRelevant: 0,
  context: 0,
  contextRelevant: 0,
  top: 0,
  topRelevant: 0,
  nothing: 0,
  nothingTopRelevant: 0,
  answered: 0,
  wholeSentences: 0,
  inOrder: 0,
  documents: 0,
});

/** What one answer adds to the tally; `sentencesOf` gives a document's whole sentences (as an answer quotes them). */
const count = (
  tally: Tally,
  answer: { answer: string; citations: { index: number; fileId: string | null }[] },
  chunks: { sourceId: string }[],
  isRelevant: (sourceId: string) => boolean,
  sentencesOf: (sourceId: string) => Set<string>,
) => {
  const topRelevant = chunks[0] ? isRelevant(chunks[0].sourceId) : false;
  if (chunks[0]) tally.top++;
  if (topRelevant) tally.topRelevant++;
  for (const c of chunks) {
    tally.context++;
    if (isRelevant(c.sourceId)) tally.contextRelevant++;
  }
  if (!answer.citations.length) {
    tally.nothing++;
    if (topRelevant) tally.nothingTopRelevant++;
    return;
  }
  tally.answered++;
  for (const c of answer.citations) {
    tally.cited++;
    if (isRelevant(c.fileId!)) tally.citedRelevant++;
  }
  tally.documents += new Set(answer.citations.map((c) => c.fileId)).size;
  const quoted = [...answer.answer.matchAll(/(.+?)\s\[(\d+)\]\s*/g)].map((m) => ({ text: m[1]!, n: Number(m[2]) }));
  const fileOf = new Map(answer.citations.map((c) => [c.index, c.fileId!]));
  if (quoted.every((q) => sentencesOf(fileOf.get(q.n) ?? "").has(normal(q.text)))) tally.wholeSentences++;
  const firstUse = [...new Set(quoted.map((q) => q.n))];
  if (firstUse.every((n, i) => n === i + 1)) tally.inOrder++;
};

const report = (level: string, queries: number, docs: number, t: Tally) =>
  `answers (${level}, ${queries} SciFact train claims, ${docs} documents): citation precision ` +
  `${pct(t.citedRelevant / (t.cited || 1))} (${t.cited} citations) | reference: context precision ` +
  `${pct(t.contextRelevant / (t.context || 1))}, top hit ${pct(t.topRelevant / (t.top || 1))} | "found nothing" ` +
  `${t.nothing}, where the top hit is relevant ${pct(t.nothingTopRelevant / (t.topRelevant || 1))} ` +
  `(${t.nothingTopRelevant}/${t.topRelevant}) | answers quoting whole sentences only ` +
  `${pct(t.wholeSentences / (t.answered || 1))}, markers 1..n in first-use order ${pct(t.inOrder / (t.answered || 1))}, ` +
  `documents per answer ${(t.documents / (t.answered || 1)).toFixed(2)}`;

const citationPrecision = async (say: (line: string) => void) => {
  const sf = loadSciFact();
  if (!sf) return "answers: SciFact not found (../shared/eval/scifact); citation precision skipped";
  const { ensureProject } = await import("@/server/projects/service");
  const { indexDocuments } = await import("@/server/testing/index-documents");
  const { retrieveForLevel } = await import("@/server/answers/retrieval-plan");
  const { generateAnswer } = await import("@/server/answers/generate");
  const { neutraliseBrackets, resolveCitations } = await import("@/server/answers/citations");
  const { extractiveAnswerBefore } = await import("./extractive-before");
  const { splitSentences } = await import("@/server/chunking/sentences");
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
  const docOf = new Map(indexed.map((s, i) => [s.sourceId, docs[i]!]));
  // A document's whole sentences, split from its own text (not from any chunk), written as an answer quotes them.
  const sentencesOf = (sourceId: string) =>
    new Set(splitSentences(docOf.get(sourceId)?.text ?? "").map((x) => normal(neutraliseBrackets(x))));
  for (const level of ["fast", "accurate"] as const) {
    const tally = { now: emptyTally(), before: emptyTally() };
    for (const q of queries) {
      const relevant = sf.qrels.get(q.id)!;
      const isRelevant = (sourceId: string) => relevant.has(docOf.get(sourceId)?.id ?? "");
      const { chunks } = await retrieveForLevel({ level, model: null, projectId: project.id, query: q.text });
      const answer = await generateAnswer({ question: q.text, projectId: project.id, chunks, modelId: null });
      count(tally.now, answer, chunks, isRelevant, sentencesOf);
      const before = resolveCitations(extractiveAnswerBefore(q.text, chunks).answer, chunks);
      count(tally.before, before, chunks, isRelevant, sentencesOf);
    }
    say(report(level, queries.length, docs.length, tally.now));
    say(`  before issue 26 (bench/extractive-before.ts): ${report(level, queries.length, docs.length, tally.before)}`);
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
