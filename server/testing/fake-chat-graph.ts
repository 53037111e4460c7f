import type { ChatRequestBody } from "./fake-chat-types";

/**
 * The stand-in model's answers to the graph-rag prompts (server/graph-rag/), computed from the request as a model's
 * would be: extraction lists the passage's capitalised names (the first pass stops after FIRST_PASS of them, so the
 * gleaning pass has something to find), typed by a few cue words, described by their first sentence, related when
 * they share a sentence; the duplicate check says yes when one name's words contain the other's or they differ by a
 * letter or two; a community summary restates its entities' descriptions. Null: not a graph prompt.
 */

const FIRST_PASS = 6;
const ORG_WORDS =
  /\b(University|Institute|Academy|Company|Corporation|Inc|Association|Department|Court|Office|Ministry|Bank|Society)\b/;

const system = (body: ChatRequestBody) =>
  body.messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
const user = (body: ChatRequestBody) => body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
const passageOf = (text: string) => /"""\n([\s\S]*?)\n"""/.exec(text)?.[1] ?? "";
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

const namesIn = (passage: string) => {
  const sentences = passage.split(/(?<=[.!?])\s+/).map((s) => s.replace(/\s+/g, " ").trim());
  const found: { name: string; sentence: number }[] = [];
  sentences.forEach((sentence, i) => {
    for (const m of sentence.matchAll(/\b[A-Z][\p{L}'-]+(?:\s+(?:of\s+)?[A-Z][\p{L}'-]+)*/gu)) {
      const single = !m[0].includes(" ");
      if (single && (m.index === 0 || m[0].length < 3)) continue;
      found.push({ name: m[0], sentence: i });
    }
  });
  const entities = new Map<string, { name: string; type: string; description: string; sentences: Set<number> }>();
  for (const f of found) {
    const e = entities.get(f.name);
    if (e) e.sentences.add(f.sentence);
    else
      entities.set(f.name, {
        name: f.name,
        type: ORG_WORDS.test(f.name) ? "ORGANIZATION" : f.name.includes(" ") ? "PERSON" : "CONCEPT",
        description: sentences[f.sentence]!,
        sentences: new Set([f.sentence]),
      });
  }
  return { list: [...entities.values()], sentences };
};

const relationshipsOf = (
  list: ReturnType<typeof namesIn>["list"],
  sentences: string[],
  keep: (a: string, b: string) => boolean,
) => {
  const out: { source: string; target: string; description: string; weight: number }[] = [];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = [list[i]!, list[j]!];
      const shared = [...a.sentences].filter((s) => b.sentences.has(s));
      if (shared.length && keep(a.name, b.name))
        out.push({
          source: a.name,
          target: b.name,
          description: sentences[shared[0]!]!,
          weight: Math.min(10, 2 * shared.length),
        });
    }
  return out;
};

const extraction = (body: ChatRequestBody, gleaning: boolean) => {
  const text = user(body);
  const { list, sentences } = namesIn(passageOf(text));
  const earlier = new Set(
    (/^Entities: (.*)$/m.exec(text)?.[1] ?? "")
      .split("; ")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const entities = gleaning ? list.filter((e) => !earlier.has(e.name)) : list.slice(0, FIRST_PASS);
  const chosen = new Set(entities.map((e) => e.name));
  const inScope = gleaning ? new Set(list.map((e) => e.name)) : chosen;
  const relationships = relationshipsOf(
    list.filter((e) => inScope.has(e.name)),
    sentences,
    (a, b) => chosen.has(a) || chosen.has(b),
  );
  return {
    entities: entities.map(({ name, type, description }) => ({ name, type, description })),
    relationships,
  };
};

const distance = (a: string, b: string) => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
};

const sameEntity = (body: ChatRequestBody) => {
  const [a, b] = [/^A: "([^"]*)"/m, /^B: "([^"]*)"/m].map((r) => norm(r.exec(user(body))?.[1] ?? ""));
  const contains = (x: string, y: string) => ` ${y} `.includes(` ${x} `);
  return { same: !!a && !!b && (contains(a!, b!) || contains(b!, a!) || distance(a!, b!) <= 2) };
};

const community = (body: ChatRequestBody) => {
  const entries = [...user(body).matchAll(/^- (.+?) \(([A-Z_]+)\): (.*)$/gm)].map((m) => ({
    name: m[1]!,
    description: m[3]!,
  }));
  const names = entries.map((e) => e.name);
  return {
    title: names.slice(0, 3).join(" & ") || "Community",
    summary: entries
      .slice(0, 2)
      .map((e) => e.description)
      .filter(Boolean)
      .join(" "),
  };
};

export const graphReplyFor = (body: ChatRequestBody): string | null => {
  const instructions = system(body);
  if (/knowledge graph from a text passage/.test(instructions))
    return JSON.stringify(extraction(body, /earlier extraction missed/i.test(instructions)));
  if (/refer to the same real-world entity/.test(instructions)) return JSON.stringify(sameEntity(body));
  if (/summarise a community of a knowledge graph/.test(instructions)) return JSON.stringify(community(body));
  return null;
};
