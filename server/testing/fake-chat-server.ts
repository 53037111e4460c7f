import { createServer, type IncomingMessage, type Server } from "node:http";

/**
 * Test helper: a local OpenAI-compatible `/chat/completions` server (no remote model exists in tests). Its JSON-mode
 * answers are computed from the page text in the request, the way a model's would depend on it: the summary quotes
 * the page's first sentence, keywords are its most frequent long words, topics pairs of them.
 */

export type ChatRequestBody = {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
};

export type FakeChatServer = {
  baseUrl: string;
  requests: ChatRequestBody[];
  /** Answer with this HTTP status (and an OpenAI-style error) while it returns a number. */
  failWith: (fn: ((body: ChatRequestBody) => number | null) | null) => void;
  /** Reply with this message content instead of the computed JSON while it returns a string. */
  replyWith: (fn: ((body: ChatRequestBody) => string | null) | null) => void;
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

export const startFakeChatServer = async (): Promise<FakeChatServer> => {
  const requests: ChatRequestBody[] = [];
  let fail: ((body: ChatRequestBody) => number | null) | null = null;
  let reply: ((body: ChatRequestBody) => string | null) | null = null;
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as ChatRequestBody;
    requests.push(body);
    const status = fail?.(body) ?? null;
    res.setHeader("content-type", "application/json");
    if (req.url !== "/v1/chat/completions" || status) {
      res.statusCode = status ?? 404;
      res.end(JSON.stringify({ error: { message: "The server had an error while processing your request" } }));
      return;
    }
    res.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        model: body.model,
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: reply?.(body) ?? JSON.stringify(answerFor(body)) },
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    failWith: (fn) => (fail = fn),
    replyWith: (fn) => (reply = fn),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
