import type { WinkMethods } from "wink-nlp";
import { normaliseName } from "./names";
import type { ChunkExtraction, ExtractedEntity, ExtractedRelationship } from "./types";

/**
 * Model-free extraction with wink-nlp and its English model (shipped inside the npm package, so it runs offline):
 * named entities are runs of proper nouns ("University of Paris") and wink's typed entities (dates, money,
 * percentages, e-mails, URLs); concepts are noun phrases of two or more words ("dense passage retrieval") and nouns
 * the passage repeats. Relationships are co-occurrence: two entities in one sentence (weight 1 per sentence, described
 * by that sentence), two names in one chunk but never in one sentence (weight 0.25). Nothing is invented: every
 * description is a sentence of the text.
 */

let nlp: Promise<WinkMethods> | null = null;
// Loaded on first use, from node_modules (next.config.mjs keeps both packages external): imported at the top, the
// 6 MB model was parsed into every server bundle that reaches this file and held by the app from its start, graph
// RAG used or not (about 20 MB of its idle heap).
const load = () =>
  (nlp ??= Promise.all([import("wink-nlp"), import("wink-eng-lite-web-model")]).then(([wink, model]) =>
    wink.default(model.default),
  ));

/** wink entity types kept as entities; numbers and times alone (CARDINAL, ORDINAL, TIME …) only add noise. */
const KEPT_TYPES = new Set(["DATE", "MONEY", "PERCENT", "EMAIL", "URL", "HASHTAG", "MENTION"]);
const NAME_LINKS = new Set(["of", "de", "du", "von", "van", "&"]);
const MAX_ENTITIES = 40;
const MAX_PER_SENTENCE = 10;
const DESCRIPTION_CHARS = 300;

export const clip = (raw: string, n = DESCRIPTION_CHARS) => {
  const text = raw.replace(/\s+/g, " ").trim();
  return text.length > n ? `${text.slice(0, n - 1).trimEnd()}…` : text;
};

type Found = { name: string; type: string; sentence: number };

type Tokens = {
  values: string[];
  pos: string[];
  lemmas: string[];
  covered: Set<number>;
  sentenceOf: (token: number) => number;
};

/** Proper-noun runs, joined across "of"/"de"/… when a proper noun follows. */
const properNounRuns = ({ values, pos, covered, sentenceOf }: Tokens, found: Found[]) => {
  for (let t = 0; t < values.length; t++) {
    if (pos[t] !== "PROPN" || covered.has(t)) continue;
    let end = t;
    while (end + 1 < values.length && !covered.has(end + 1)) {
      if (pos[end + 1] === "PROPN") end += 1;
      else if (NAME_LINKS.has(values[end + 1]!.toLowerCase()) && pos[end + 2] === "PROPN") end += 2;
      else break;
    }
    const name = values.slice(t, end + 1).join(" ");
    if (/\p{L}{2}/u.test(name)) found.push({ name, type: "NAME", sentence: sentenceOf(t) });
    for (let k = t; k <= end; k++) covered.add(k);
    t = end;
  }
};

/** Noun phrases: adjectives and nouns ending in a noun (its lemma, so plurals meet their singular). */
const nounPhrases = ({ values, pos, lemmas, covered, sentenceOf }: Tokens, found: Found[]) => {
  const nounCounts = new Map<string, number>();
  for (let t = 0; t < values.length; t++)
    if (pos[t] === "NOUN") nounCounts.set(lemmas[t]!, (nounCounts.get(lemmas[t]!) ?? 0) + 1);
  for (let t = 0; t < values.length; t++) {
    if (covered.has(t) || !["ADJ", "NOUN"].includes(pos[t]!)) continue;
    let end = t;
    while (end + 1 < values.length && !covered.has(end + 1) && ["ADJ", "NOUN"].includes(pos[end + 1]!)) end += 1;
    let last = end;
    while (last >= t && pos[last] !== "NOUN") last -= 1;
    if (last >= t) {
      const words = [...values.slice(t, last).map((v) => v.toLowerCase()), lemmas[last]!.toLowerCase()];
      const long = words.length >= 2;
      const repeated = words.length === 1 && words[0]!.length >= 4 && (nounCounts.get(lemmas[last]!) ?? 0) >= 2;
      if ((long || repeated) && words.every((x) => /\p{L}/u.test(x)))
        found.push({ name: words.join(" "), type: "CONCEPT", sentence: sentenceOf(t) });
    }
    t = end;
  }
};

/** One entity per normalised name, described by the first sentence that mentions it. */
const entitiesOf = (found: Found[], sentences: string[]) => {
  const entities = new Map<string, ExtractedEntity & { sentences: Set<number> }>();
  for (const f of found.sort((a, b) => a.sentence - b.sentence)) {
    const key = normaliseName(f.name);
    if (!key) continue;
    const entity = entities.get(key);
    if (entity) entity.sentences.add(f.sentence);
    else if (entities.size < MAX_ENTITIES)
      entities.set(key, {
        name: f.name,
        type: f.type,
        description: clip(sentences[f.sentence]?.trim() ?? ""),
        sentences: new Set([f.sentence]),
      });
  }
  return [...entities.values()];
};

/** Entities named in one sentence are related by it; names never in one sentence, weakly and undescribed. */
const relationshipsOf = (list: (ExtractedEntity & { sentences: Set<number> })[], sentences: string[]) => {
  const relationships = new Map<string, ExtractedRelationship>();
  const relate = (a: ExtractedEntity, b: ExtractedEntity, weight: number, description: string) => {
    const [x, y] = a.name < b.name ? [a, b] : [b, a];
    const id = `${x.name}\u0000${y.name}`;
    const rel = relationships.get(id);
    if (rel) rel.weight += weight;
    else relationships.set(id, { source: x.name, target: y.name, description: clip(description), weight });
  };
  sentences.forEach((sentence, s) => {
    const here = list.filter((e) => e.sentences.has(s)).slice(0, MAX_PER_SENTENCE);
    for (let i = 0; i < here.length; i++)
      for (let j = i + 1; j < here.length; j++) relate(here[i]!, here[j]!, 1, sentence.trim());
  });
  const names = list.filter((e) => e.type === "NAME").slice(0, MAX_PER_SENTENCE);
  for (let i = 0; i < names.length; i++)
    for (let j = i + 1; j < names.length; j++) {
      const [a, b] = [names[i]!, names[j]!];
      if ([...a.sentences].some((s) => b.sentences.has(s))) continue;
      relate(a, b, 0.25, ""); // no sentence states it: left undescribed rather than described in our words
    }
  return [...relationships.values()];
};

export const extractLocal = async (text: string): Promise<ChunkExtraction> => {
  const w = await load();
  const its = w.its;
  const doc = w.readDoc(text);
  const values = doc.tokens().out() as string[];
  const pos = doc.tokens().out(its.pos) as string[];
  const lemmas = doc.tokens().out(its.lemma as typeof its.pos) as string[];
  const sentenceSpans = doc.sentences().out(its.span) as unknown as [number, number][];
  const sentences = doc.sentences().out() as string[];
  const sentenceOf = (token: number) =>
    Math.max(
      0,
      sentenceSpans.findIndex(([s, e]) => token >= s && token <= e),
    );

  const found: Found[] = [];
  const covered = new Set<number>();
  const entitySpans = doc.entities().out(its.span) as unknown as [number, number][];
  const entityTypes = doc.entities().out(its.type) as string[];
  entitySpans.forEach(([s, e], i) => {
    for (let t = s; t <= e; t++) covered.add(t);
    if (KEPT_TYPES.has(entityTypes[i]!))
      found.push({ name: values.slice(s, e + 1).join(" "), type: entityTypes[i]!, sentence: sentenceOf(s) });
  });
  const tokens = { values, pos, lemmas, covered, sentenceOf };
  properNounRuns(tokens, found);
  nounPhrases(tokens, found);

  const list = entitiesOf(found, sentences);
  return {
    entities: list.map(({ name, type, description }) => ({ name, type, description })),
    relationships: relationshipsOf(list, sentences),
  };
};
