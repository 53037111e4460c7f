import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { raptorReply } from "./fake-chat-raptor";
import { graphReplyFor } from "./fake-chat-graph";
import type { ChatRequestBody } from "./fake-chat-types";

/**
 * Test helper: a local OpenAI-compatible `/chat/completions` server (no remote model exists in tests). Its answers
 * are computed from the request, the way a model's would depend on it: enrichment summaries quote the page's first
 * sentence; a question over numbered context passages is answered with the best-matching passage's first sentence
 * and its `[N]`; JSON against a schema (native `json_schema` or the schema in the prompt) is filled from the
 * context; follow-up rewriting, query expansion and the sufficiency check answer as their prompts ask; an evaluation
 * judge's verdicts and reasons come from word overlap (judgeReplyFor). It streams
 * (SSE with a final usage chunk), reports usage, and can be scripted to fail or to reply with given text.
 */

export type { ChatRequestBody };

/** A scripted reply: its text, and optionally how it ended (`length`: cut at the token limit). */
export type ScriptedReply = string | { content: string; finishReason?: string };

export type RerankRequestBody = { model: string; query: string; documents: string[] };

export type FakeChatServer = {
  baseUrl: string;
  requests: ChatRequestBody[];
  /** The Authorization header of each POST, in order (chat, embeddings and rerank alike; null when none came). */
  authorizations: (string | null)[];
  /** Inputs of its OpenAI-style `POST /v1/embeddings` (vectors of 16 numbers from the input's words). */
  embeddings: { model: string; input: string[] }[];
  /** Requests to its Cohere-style `POST /v1/rerank` (scores by query-word overlap). */
  reranks: RerankRequestBody[];
  /** Answer with this HTTP status (and an OpenAI-style error) while it returns a number. */
  failWith: (fn: ((body: ChatRequestBody) => number | null) | null) => void;
  /** Reply with this message content instead of the computed one while it returns one. */
  replyWith: (fn: ((body: ChatRequestBody) => ScriptedReply | null) | null) => void;
  /** Milliseconds before the first streamed chunk and between chunks (a model's latency). */
  setStreamDelay: (firstMs: number, betweenMs: number) => void;
  /** Milliseconds before a whole (non-streamed) reply, e.g. to catch a job in the middle of its judge calls. */
  setReplyDelay: (ms: number) => void;
  /** The ids its `GET /v1/models` lists (and `GET /api/tags`, as Ollama names them). */
  setModels: (ids: string[]) => void;
  /** Answer the model list with 401 unless the request carries `Authorization: Bearer <key>` (null: any). */
  requireKey: (key: string | null) => void;
  close: () => Promise<void>;
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = "";
    req.on("data", (d: Buffer) => (data += d.toString()));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });

/** The text between the `"""` fences of the user message. */
export const quotedText = (body: ChatRequestBody) => {
  const user = body.messages.find((m) => m.role === "user")?.content ?? "";
  const match = /"""\n([\s\S]*)\n"""/.exec(user);
  return match?.[1] ?? "";
};

const topWords = (text: string, n: number) => {
  const counts = new Map<string, number>();
  for (const w of text.toLowerCase().match(/\p{L}{5,}/gu) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([w]) => w);
};

export const answerFor = (body: ChatRequestBody): object => {
  // Page summaries for a document summary come numbered ("1. …").
  const text = quotedText(body).replace(/^\d+\. /gm, "");
  const firstSentence = text.split(/(?<=[.!?])\s/)[0]?.trim() ?? "";
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  if (/summarise a document/i.test(system)) return { summary: `Overall: ${firstSentence}` };
  const words = topWords(text, 10);
  return {
    summary: `This page is about ${words[0] ?? "nothing"}. It begins: ${firstSentence}`,
    keywords: words,
    topics: [`${words[0]} ${words[1]}`, `${words[2]} ${words[3]}`].filter((t) => !t.includes("undefined")),
  };
};

const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}{3,}|\p{N}+/gu) ?? []);
const STOP = new Set([
  "the",
  "and",
  "what",
  "which",
  "who",
  "how",
  "does",
  "did",
  "for",
  "are",
  "was",
  "with",
  "this",
  "that",
  "about",
  "from",
]);
const contentWords = (text: string) => [...words(text)].filter((w) => !STOP.has(w));

const lastUser = (body: ChatRequestBody) => [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
const systemText = (body: ChatRequestBody) =>
  body.messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");

/** `[N] (file, page)\ntext` blocks of a context message. */
const passagesOf = (user: string) => {
  const body = user.split(/\n\n(?:Question|Last question): /)[0]!;
  const heads = [...body.matchAll(/^\[(\d+)\] \([^)\n]*\)\n/gm)];
  return heads.map((head, i) => ({
    n: Number(head[1]),
    text: body.slice(head.index + head[0].length, heads[i + 1]?.index ?? body.length).trim(),
  }));
};
const questionOf = (user: string) => /(?:Question|Last question): ([\s\S]*)$/.exec(user)?.[1]?.trim() ?? user;

const bestPassage = (user: string) => {
  const question = contentWords(questionOf(user));
  const scored = passagesOf(user).map((p) => {
    const have = words(p.text);
    return { ...p, hits: question.filter((w) => have.has(w)).length };
  });
  return scored.sort((a, b) => b.hits - a.hits || a.n - b.n)[0];
};

/** A value for a JSON Schema, taken from the context the way an extracting model would. */
const fillSchema = (schema: Record<string, unknown>, context: string, key = ""): unknown => {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (type === "object") {
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fillSchema(v, context, k)]));
  }
  if (type === "array")
    return [fillSchema((schema.items ?? { type: "string" }) as Record<string, unknown>, context, key)];
  if (type === "number" || type === "integer") {
    const n = Number(/\d+(?:\.\d+)?/.exec(context)?.[0] ?? 0);
    return type === "integer" ? Math.round(n) : n;
  }
  if (type === "boolean") return true;
  if (type === "null") return null;
  const sentences = context.split(/(?<=[.!?])\s+/).filter((s) => s.trim());
  const hit = sentences.find((s) => key && s.toLowerCase().includes(key.toLowerCase()));
  return (hit ?? sentences[0] ?? "").trim();
};

/** A labelled section ("Question:\n…") of a judge's request. */
const sectionOf = (user: string, label: string) =>
  new RegExp(`(?:^|\\n)${label}:\\n([\\s\\S]*?)(?=\\n\\n(?:Question|Reference answer|Answer|Passages):\\n|$)`)
    .exec(user)?.[1]
    ?.trim() ?? "";

/** Share of a text's content words that another text holds. */
const overlap = (text: string, other: string) => {
  const mine = contentWords(text);
  const have = words(other);
  const hits = mine.filter((w) => have.has(w)).length;
  return { hits, of: mine.length, share: mine.length ? hits / mine.length : 0 };
};

const sentencesOf = (text: string) =>
  text
    .replace(/\[\d+\]/g, "")
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .filter((x) => contentWords(x).length > 0);

/**
 * What a judge (server/evaluation/judge.ts) would say, by word overlap: a passage is useful when it holds a quarter
 * of the reference answer's words; a claim is attributed or supported when the passages hold 60 % of its words; the
 * questions an answer answers are built from its words; "I could not find…" is noncommittal.
 */
export const judgeReplyFor = (task: string, user: string): object => {
  const passages = [...sectionOf(user, "Passages").matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => ({
    n: Number(m[1]),
    text: m[2]!,
  }));
  const all = passages.map((p) => p.text).join(" ");
  const claims = (text: string) =>
    sentencesOf(text).map((claim) => {
      const o = overlap(claim, all);
      return { claim, holds: o.share >= 0.6, reason: `the passages hold ${o.hits} of its ${o.of} words` };
    });
  if (task === "context precision") {
    const reference = sectionOf(user, "Reference answer");
    return {
      verdicts: passages.map((p) => {
        const o = overlap(reference, p.text);
        return {
          passage: p.n,
          useful: o.share >= 0.25 || o.hits >= 3,
          reason: `it holds ${o.hits} of the reference answer's ${o.of} words`,
        };
      }),
    };
  }
  if (task === "context recall")
    return {
      claims: claims(sectionOf(user, "Reference answer")).map((c) => ({
        claim: c.claim,
        attributed: c.holds,
        reason: c.reason,
      })),
    };
  if (task === "faithfulness")
    return {
      claims: claims(sectionOf(user, "Answer")).map((c) => ({ claim: c.claim, supported: c.holds, reason: c.reason })),
    };
  const answer = sectionOf(user, "Answer");
  const noncommittal = /could not find|do not know|don't know|not sure/i.test(answer);
  const terms = contentWords(answer.replace(/\[\d+\]/g, ""));
  return {
    questions: [
      `What about ${terms.slice(0, 6).join(" ")}?`,
      `Which ${terms.slice(1, 6).join(" ")}?`,
      `How ${terms.slice(0, 4).join(" ")}?`,
    ],
    noncommittal,
    reason: noncommittal ? "the answer says it does not know" : "the answer states facts",
  };
};

const schemaOf = (body: ChatRequestBody): Record<string, unknown> | null => {
  if (body.response_format?.type === "json_schema") return body.response_format.json_schema?.schema ?? null;
  const inPrompt = /JSON Schema:\n(\{[\s\S]*\})\s*$/m.exec(systemText(body));
  return inPrompt ? (JSON.parse(inPrompt[1]!) as Record<string, unknown>) : null;
};

/** What a model would say to this request. */
export const replyFor = (body: ChatRequestBody): string => {
  const raptor = raptorReply(body);
  if (raptor !== null) return raptor;
  const graph = graphReplyFor(body);
  if (graph !== null) return graph;
  const system = systemText(body);
  const user = lastUser(body);
  if (/standalone search query/i.test(system)) {
    const previous = /^user: (.*)$/m.exec(user)?.[1] ?? "";
    return JSON.stringify({ query: `${questionOf(user)} (${previous})` });
  }
  if (/search queries/i.test(system)) {
    const q = questionOf(user);
    return JSON.stringify({ queries: [q, contentWords(q).join(" ")] });
  }
  if (/enough to answer/i.test(system)) {
    const have = words(
      passagesOf(user)
        .map((p) => p.text)
        .join(" "),
    );
    const missing = contentWords(questionOf(user)).filter((w) => !have.has(w));
    return JSON.stringify(missing.length ? { sufficient: false, query: missing.join(" ") } : { sufficient: true });
  }
  const judge = /You are an evaluation judge\. Task: ([a-z ]+)\./.exec(system);
  if (judge) return JSON.stringify(judgeReplyFor(judge[1]!, user));
  const schema = schemaOf(body);
  if (schema)
    return JSON.stringify(
      fillSchema(
        schema,
        passagesOf(user)
          .map((p) => p.text)
          .join(" ") || user,
      ),
    );
  if (body.response_format) return JSON.stringify(answerFor(body));
  const best = bestPassage(user);
  if (!best) return "I could not find this in the selected sources.";
  // The passage's sentence that shares most words with the question.
  const question = contentWords(questionOf(user));
  const sentences = best.text.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim());
  const hits = (x: string) => question.filter((w) => words(x).has(w)).length;
  const sentence = sentences.reduce((a, b) => (hits(b) > hits(a) ? b : a), sentences[0] ?? "");
  return `${sentence.trim()} [${best.n}]`;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Its Cohere-style `POST /v1/rerank`: scores by query-word overlap. */
const serveRerank = async (req: IncomingMessage, res: ServerResponse, reranks: RerankRequestBody[]) => {
  const body = JSON.parse(await readBody(req)) as RerankRequestBody;
  reranks.push(body);
  const query = contentWords(body.query);
  const results = body.documents.map((doc, index) => {
    const have = words(doc);
    return { index, relevance_score: query.filter((w) => have.has(w)).length / (query.length || 1) };
  });
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ results }));
};

/** `GET /v1/models` (OpenAI) and `GET /api/tags` (Ollama), behind the key when one is required; else 404. */
const serveModelList = (req: IncomingMessage, res: ServerResponse, models: string[], key: string | null) => {
  res.setHeader("content-type", "application/json");
  if (req.url !== "/v1/models" && req.url !== "/api/tags") {
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: "Not found" } }));
  } else if (key && req.headers.authorization !== `Bearer ${key}`) {
    res.statusCode = 401;
    res.end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
  } else if (req.url === "/api/tags") res.end(JSON.stringify({ models: models.map((name) => ({ name })) }));
  else res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model" })) }));
};

/** A deterministic vector per text: word hashes counted into 16 buckets (a stand-in embedding model). */
const standInVector = (text: string) => {
  const vector = new Array<number>(16).fill(0);
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    let h = 0;
    for (const c of word) h = (h * 31 + c.charCodeAt(0)) % 16;
    vector[h] = (vector[h] ?? 0) + 1;
  }
  vector[0] = (vector[0] ?? 0) + 0.01; // never the zero vector, which has no direction
  return vector;
};

const serveEmbeddings = async (
  req: IncomingMessage,
  res: ServerResponse,
  log: { model: string; input: string[] }[],
) => {
  const body = JSON.parse(await readBody(req)) as { model: string; input: string | string[] };
  const input = Array.isArray(body.input) ? body.input : [body.input];
  log.push({ model: body.model, input });
  res.setHeader("content-type", "application/json");
  res.end(
    JSON.stringify({
      object: "list",
      model: body.model,
      data: input.map((text, index) => ({ object: "embedding", index, embedding: standInVector(text) })),
      usage: { prompt_tokens: input.join(" ").length, total_tokens: input.join(" ").length },
    }),
  );
};

/** `port`: a fixed one (the browser suite allows exactly its stand-ins' ports); any free one by default. */
export const startFakeChatServer = async ({ port: listenPort = 0 } = {}): Promise<FakeChatServer> => {
  const requests: ChatRequestBody[] = [];
  const reranks: RerankRequestBody[] = [];
  const authorizations: (string | null)[] = [];
  const embeddings: { model: string; input: string[] }[] = [];
  let fail: ((body: ChatRequestBody) => number | null) | null = null;
  let reply: ((body: ChatRequestBody) => ScriptedReply | null) | null = null;
  let delays = { first: 0, between: 0 };
  let replyDelay = 0;
  let models = ["stand-in-chat"];
  let key: string | null = null;
  const server: Server = createServer(async (req, res) => {
    if (req.method === "GET") return serveModelList(req, res, models, key);
    authorizations.push(req.headers.authorization ?? null);
    if (req.url === "/v1/embeddings") return serveEmbeddings(req, res, embeddings);
    if (req.url === "/v1/rerank") return serveRerank(req, res, reranks);
    const body = JSON.parse(await readBody(req)) as ChatRequestBody;
    requests.push(body);
    const status = fail?.(body) ?? null;
    if (req.url !== "/v1/chat/completions" || status) {
      res.statusCode = status ?? 404;
      res.setHeader("content-type", "application/json");
      if (status === 429) res.setHeader("retry-after", "0");
      const message =
        status === 429
          ? "Rate limit reached, retry later"
          : status && status < 500
            ? "Invalid request: unsupported parameter"
            : "The server had an error while processing your request";
      res.end(JSON.stringify({ error: { message } }));
      return;
    }
    const scripted = reply?.(body) ?? null;
    const content = scripted === null ? replyFor(body) : typeof scripted === "string" ? scripted : scripted.content;
    const finishReason = (typeof scripted === "object" && scripted?.finishReason) || "stop";
    const usage = {
      prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4),
      completion_tokens: Math.ceil(content.length / 4),
    };
    const id = `chatcmpl-${requests.length}`;
    if (body.stream) {
      res.setHeader("content-type", "text/event-stream");
      const send = (chunk: object) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      await sleep(delays.first);
      const pieces = content.match(/\S+\s*/g) ?? [content];
      for (const [i, piece] of pieces.entries()) {
        if (i) await sleep(delays.between);
        send({
          id,
          object: "chat.completion.chunk",
          model: body.model,
          choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
        });
      }
      send({
        id,
        object: "chat.completion.chunk",
        model: body.model,
        choices: [{ index: 0, delta: {}, finish_reason: finishReason }],
      });
      send({
        id,
        object: "chat.completion.chunk",
        model: body.model,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
      res.end("data: [DONE]\n\n");
      return;
    }
    await sleep(replyDelay);
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        model: body.model,
        choices: [{ index: 0, finish_reason: finishReason, message: { role: "assistant", content } }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    embeddings,
    reranks,
    failWith: (fn) => (fail = fn),
    replyWith: (fn) => (reply = fn),
    setStreamDelay: (first, between) => (delays = { first, between }),
    setReplyDelay: (ms) => (replyDelay = ms),
    setModels: (ids) => (models = ids),
    requireKey: (k) => (key = k),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
