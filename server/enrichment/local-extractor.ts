import { splitSentences } from "../chunking/sentences";
import { stem } from "../providers/embedding/stem";
import { STOPWORDS } from "./stopwords";

/**
 * The model-free enricher. Keywords: TF-IDF of content words, pages being the documents (so a page's keywords are
 * what sets it apart, not what every page says). Topics: RAKE-style keyphrases (runs of content words between
 * stopwords and punctuation) of two to four words, scored by their words' TF-IDF and how often they recur.
 * Summaries: TextRank over sentences (PageRank on their TF-IDF cosine similarity), the most central ones kept in
 * reading order. Deterministic, no network, a few milliseconds per page.
 */

export const LOCAL_ENRICHMENT_MODEL = "quarry-local-extractor-v1";

export type EnrichmentElement = { type: string; text: string };
export type PageAnnotation = { summary: string | null; keywords: string[]; topics: string[] };

export const MAX_KEYWORDS = 10;
export const MAX_TOPICS = 5;
const MAX_PHRASE_WORDS = 4;
const PAGE_SUMMARY_CHARS = 400;
const DOCUMENT_SUMMARY_CHARS = 600;
/** Bounds TextRank's quadratic similarity matrix. */
const MAX_SENTENCES = 300;
const DAMPING = 0.85;
const ITERATIONS = 30;
/** Headings say what a page is about: their words count this many times. */
const TITLE_WEIGHT = 2;

/** Not prose: never summary sentences. */
const NOT_PROSE = new Set([
  "Title",
  "FigureCaption",
  "Header",
  "Footer",
  "PageNumber",
  "PageBreak",
  "Table",
  "TableRow",
  "Image",
  "Chart",
  "Seal",
  "Formula",
  "FormulaNumber",
  "CodeSnippet",
  "FormKeysValues",
  "Link",
  "EmailAddress",
  "Address",
]);
/** Captions inside body text describe a figure, not the page. */
const CAPTION = /^(?:table|figure|fig\.|chart|listing)\s*[\dIVX]+[a-z]?\s*[:.]/i;
/** Repeated furniture, code and maths: never keywords either. */
const NO_TERMS = new Set(["Header", "Footer", "PageNumber", "PageBreak", "CodeSnippet", "Formula", "FormulaNumber"]);

const wordSegmenter = new Intl.Segmenter("en", { granularity: "word" });
/** Scripts written without spaces between words: these need the dictionary-based segmenter. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const TOKEN_RE = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;

/** Words and punctuation marks; a regular expression where words are space-separated, which is ten times faster. */
const segmentsOf = function* (text: string): Iterable<{ segment: string; isWordLike: boolean }> {
  if (UNSPACED.test(text)) {
    for (const s of wordSegmenter.segment(text)) yield { segment: s.segment, isWordLike: s.isWordLike ?? false };
    return;
  }
  for (const [segment] of text.matchAll(TOKEN_RE)) yield { segment, isWordLike: /[\p{L}\p{N}]/u.test(segment) };
};

type Word = { surface: string; key: string | null };

/**
 * Words of a text in order; `key` is the stem of a content word and null for a stopword, a number or punctuation,
 * which all end a keyphrase. Word breaks come from Unicode rules (dictionary-based for Chinese and Japanese).
 */
export const wordsOf = (text: string): Word[] => {
  const out: Word[] = [];
  let glue = false;
  for (const { segment, isWordLike } of segmentsOf(text)) {
    const last = out[out.length - 1];
    // "open-domain", "state-of-the-art": a hyphen between two words without spaces keeps them one word.
    if (!isWordLike) {
      glue = segment === "-" && last !== undefined && last.surface !== "" && /[\p{L}\p{N}]$/u.test(last.surface);
      if (!glue && segment.trim()) out.push({ surface: "", key: null });
      continue;
    }
    if (glue && last) {
      last.surface += `-${segment}`;
      last.key = keyOf(last.surface);
      glue = false;
      continue;
    }
    out.push({ surface: segment.replace(/['’]s$/u, ""), key: null });
    const added = out[out.length - 1]!;
    added.key = keyOf(added.surface);
  }
  return out;
};

/** Stems of recent words; documents repeat their vocabulary, and stemming dominates the extractor's time. */
const keyCache = new Map<string, string | null>();
const KEY_CACHE_SIZE = 50_000;

const keyOf = (surface: string): string | null => {
  const cached = keyCache.get(surface);
  if (cached !== undefined) return cached;
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.clear();
  const key = computeKey(surface);
  keyCache.set(surface, key);
  return key;
};

const computeKey = (surface: string): string | null => {
  const lower = surface.toLowerCase();
  if (STOPWORDS.has(lower) || !/\p{L}/u.test(lower)) return null;
  // Short Latin tokens are symbols ("qi", "pj") unless written as an acronym ("QA"); one Han character is a word.
  // Pure hiragana runs are Japanese particles.
  if (lower.length < 3 && !/\p{Script=Han}/u.test(lower) && !(lower.length === 2 && /^\p{Lu}+$/u.test(surface)))
    return null;
  if (/^\p{Script=Hiragana}+$/u.test(lower)) return null;
  return lower
    .split("-")
    .map((part) => stem(part))
    .join("-");
};

type Sentence = { text: string; terms: Map<string, number>; position: number; page?: number };

type PageStats = {
  /** Weighted counts of each term (titles count double). */
  tf: Map<string, number>;
  /** Surface forms per term, to show the most common spelling. */
  forms: Map<string, Map<string, number>>;
  phrases: Map<string, { count: number; forms: Map<string, number>; keys: string[] }>;
  sentences: Sentence[];
  fallbackText: string;
};

const bump = <K>(map: Map<K, number>, key: K, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

const termCounts = (text: string) => {
  const terms = new Map<string, number>();
  for (const w of wordsOf(text)) if (w.key) bump(terms, w.key);
  return terms;
};

const analysePage = (elements: EnrichmentElement[]): PageStats => {
  const stats: PageStats = { tf: new Map(), forms: new Map(), phrases: new Map(), sentences: [], fallbackText: "" };
  const addPhrase = (run: Word[]) => {
    if (run.length < 1 || run.length > MAX_PHRASE_WORDS) return;
    const keys = run.map((w) => w.key as string);
    const id = keys.join(" ");
    const entry = stats.phrases.get(id) ?? { count: 0, forms: new Map(), keys };
    entry.count += 1;
    bump(entry.forms, run.map((w) => w.surface).join(" "));
    stats.phrases.set(id, entry);
  };
  const fallback: string[] = [];
  for (const element of elements) {
    const text = element.text.replace(/\s+/g, " ").trim();
    if (!text || NO_TERMS.has(element.type)) continue;
    fallback.push(text);
    const weight = element.type === "Title" ? TITLE_WEIGHT : 1;
    let run: Word[] = [];
    for (const word of wordsOf(text)) {
      if (!word.key) {
        addPhrase(run);
        run = [];
        continue;
      }
      bump(stats.tf, word.key, weight);
      const forms = stats.forms.get(word.key) ?? new Map<string, number>();
      bump(forms, word.surface);
      stats.forms.set(word.key, forms);
      run.push(word);
    }
    addPhrase(run);
    if (NOT_PROSE.has(element.type)) continue;
    for (const sentence of splitSentences(element.text)) {
      const clean = sentence.replace(/\s+/g, " ").trim();
      const words = clean.split(" ").length;
      if (words < 6 || words > 80 || CAPTION.test(clean) || stats.sentences.length >= MAX_SENTENCES) continue;
      stats.sentences.push({ text: clean, terms: termCounts(clean), position: stats.sentences.length });
    }
  }
  stats.fallbackText = fallback.join(" ");
  return stats;
};

/** The most frequent spelling; lowercase wins over a capital that only comes from starting a sentence. */
const displayForm = (forms: Map<string, number>): string => {
  const ranked = [...forms.entries()].sort((a, b) => b[1] - a[1]);
  const best = ranked[0]?.[0] ?? "";
  const lower = best.toLowerCase();
  if (best !== lower && best !== best.toUpperCase() && forms.has(lower)) return lower;
  return best;
};

const truncate = (text: string, max: number) => {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}…`;
};

type Weights = (term: string) => number;

/** A sentence as a unit-length TF-IDF vector, so similarity is one sparse dot product. */
const unitVector = (terms: Map<string, number>, weight: Weights): Map<string, number> => {
  const vector = new Map<string, number>();
  let norm = 0;
  for (const [term, count] of terms) {
    const w = weight(term) * count;
    vector.set(term, w);
    norm += w * w;
  }
  if (norm > 0) for (const [term, w] of vector) vector.set(term, w / Math.sqrt(norm));
  return vector;
};

const dot = (a: Map<string, number>, b: Map<string, number>): number => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, w] of small) {
    const other = large.get(term);
    if (other !== undefined) sum += w * other;
  }
  return sum;
};

/** TextRank: PageRank over the sentence similarity graph; returns one centrality score per sentence. */
export const textRank = (sentences: { terms: Map<string, number> }[], weight: Weights): number[] => {
  const n = sentences.length;
  if (n <= 2) return sentences.map(() => 1);
  const vectors = sentences.map((s) => unitVector(s.terms, weight));
  // Symmetric similarity matrix, row-normalised into transition weights.
  const sim = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const v = dot(vectors[i]!, vectors[j]!);
      sim[i * n + j] = v;
      sim[j * n + i] = v;
    }
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i]! += sim[i * n + j]!;
  let scores = new Float64Array(n).fill(1 / n);
  for (let it = 0; it < ITERATIONS; it++) {
    const next = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      if (out[j]! <= 0) continue;
      const share = scores[j]! / out[j]!;
      for (let i = 0; i < n; i++) next[i]! += sim[j * n + i]! * share;
    }
    for (let i = 0; i < n; i++) next[i] = (1 - DAMPING) / n + DAMPING * next[i]!;
    scores = next;
  }
  return [...scores];
};

/** The most central sentences, in reading order, within a character budget (at least one sentence). */
const summarize = (
  sentences: Sentence[],
  weight: Weights,
  maxSentences: number,
  maxChars: number,
  boost: (s: Sentence) => number = () => 1,
): string | null => {
  if (sentences.length === 0) return null;
  const scores = textRank(sentences, weight);
  const ranked = sentences
    .map((s, i) => ({ s, score: (scores[i] ?? 0) * boost(s) }))
    .sort((a, b) => b.score - a.score || a.s.position - b.s.position);
  const chosen: Sentence[] = [];
  let chars = 0;
  for (const { s } of ranked) {
    if (chosen.length >= maxSentences) break;
    if (chosen.length > 0 && chars + 1 + s.text.length > maxChars) continue;
    chosen.push(s);
    chars += s.text.length + 1;
  }
  return truncate(
    chosen
      .sort((a, b) => a.position - b.position)
      .map((s) => s.text)
      .join(" "),
    maxChars,
  );
};

/** How many sentences a summary of this many candidates gets: a short page needs one. */
const summaryLength = (candidates: number) => (candidates <= 3 ? 1 : candidates <= 8 ? 2 : 3);

/** Document frequencies: on how many of the pages each term occurs. */
export type TermFrequencies = { df: Map<string, number>; pages: number };

/** Adds pages to a document's frequencies (a long document is counted a slice of pages at a time). */
export const countPageTerms = (into: TermFrequencies, pages: EnrichmentElement[][]) => {
  for (const page of pages) {
    for (const term of analysePage(page).tf.keys()) bump(into.df, term);
    into.pages += 1;
  }
};

/**
 * Annotates pages by the frequencies of the whole document (countPageTerms over all of its pages first), and
 * summarises the document from its pages' summaries.
 */
export const extractorFor = ({ df, pages }: TermFrequencies) => {
  const n = Math.max(1, pages);
  // 1 + ln(N/df): a term on every page still counts, one on a single page counts up to (1 + ln N) times more.
  const idf: Weights = (term) => 1 + Math.log(n / (df.get(term) ?? 1));

  const annotate = (page: PageStats | undefined): PageAnnotation => {
    if (!page || page.tf.size === 0) {
      return {
        summary: page?.fallbackText ? truncate(page.fallbackText, PAGE_SUMMARY_CHARS) : null,
        keywords: [],
        topics: [],
      };
    }
    const tfidf = (term: string) => (page.tf.get(term) ?? 0) * idf(term);
    const keywordTerms = [...page.tf.keys()].sort((a, b) => tfidf(b) - tfidf(a)).slice(0, MAX_KEYWORDS);
    const keywords = keywordTerms.map((t) => displayForm(page.forms.get(t) ?? new Map([[t, 1]])));

    const phrases = [...page.phrases.values()]
      .filter((p) => p.keys.length >= 2)
      .map((p) => ({
        id: p.keys.join(" "),
        count: p.count,
        text: displayForm(p.forms),
        // Mean word weight (so length alone does not win), a bonus per extra word, and recurrence.
        score:
          (p.keys.reduce((s, k) => s + tfidf(k), 0) / p.keys.length) *
          (1 + 0.25 * (p.keys.length - 1)) *
          (1 + Math.log(p.count)),
      }))
      // Phrases that recur on the page first: a phrase seen once is as often an accident of wording.
      .sort((a, b) => Number(b.count > 1) - Number(a.count > 1) || b.score - a.score || a.id.localeCompare(b.id));
    const topics: string[] = [];
    const chosenIds: string[] = [];
    for (const phrase of phrases) {
      if (topics.length >= MAX_TOPICS) break;
      // "dense passage retrieval" and "passage retrieval" are one topic.
      if (chosenIds.some((id) => ` ${id} `.includes(` ${phrase.id} `) || ` ${phrase.id} `.includes(` ${id} `)))
        continue;
      topics.push(phrase.text);
      chosenIds.push(phrase.id);
    }
    if (topics.length === 0) topics.push(...keywords.slice(0, 3));

    const summary =
      summarize(page.sentences, idf, summaryLength(page.sentences.length), PAGE_SUMMARY_CHARS) ??
      truncate(page.fallbackText, PAGE_SUMMARY_CHARS);
    return { summary: summary || null, keywords, topics };
  };

  /**
   * The document summary: the most central of its pages' summary sentences, earlier pages favoured (a document
   * states its subject first: abstract, introduction).
   */
  const summarizeDocument = (pageSummaries: (string | null)[]): string | null => {
    const candidates: Sentence[] = [];
    const perPage = pageSummaries.map((s) => (s ? splitSentences(s) : []));
    // Many pages: only each page's leading sentence competes, so the matrix stays bounded.
    const take = perPage.reduce((s, p) => s + p.length, 0) > MAX_SENTENCES ? 1 : Infinity;
    perPage.forEach((sentences, page) => {
      for (const text of sentences.slice(0, take)) {
        if (candidates.length >= MAX_SENTENCES) return;
        candidates.push({ text, terms: termCounts(text), position: candidates.length, page });
      }
    });
    if (candidates.length === 0) return null;
    const lead = (s: Sentence) => 1 / Math.sqrt(1 + (s.page ?? 0));
    return summarize(candidates, idf, Math.min(3, candidates.length), DOCUMENT_SUMMARY_CHARS, lead);
  };

  return { annotate, annotatePage: (page: EnrichmentElement[]) => annotate(analysePage(page)), summarizeDocument };
};

/**
 * An extractor for one document: statistics (document frequencies) are gathered over all its pages first, then each
 * page is annotated on request, and the document summarised from its pages' summaries.
 */
export const createLocalExtractor = (pages: EnrichmentElement[][]) => {
  const stats = pages.map(analysePage);
  const frequencies: TermFrequencies = { df: new Map(), pages: stats.length };
  for (const page of stats) for (const term of page.tf.keys()) bump(frequencies.df, term);
  const { annotate, summarizeDocument } = extractorFor(frequencies);
  return { pages: stats.length, annotate: (index: number) => annotate(stats[index]), summarizeDocument };
};
