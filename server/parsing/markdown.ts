import { marked, type Token, type Tokens } from "marked";
import { decodeEntities, rowsToHtml, rowsToText } from "./table-html";
import { decodeText, decodeTextStream, type ByteSource } from "./encoding";
import { linesOf } from "./text";
import { isEmailAddress } from "./classify-text";
import type { ParsedElement, PartitionResult } from "./types";

/** Plain text of inline tokens: markup dropped, link and image text kept, entities decoded. */
const inlineText = (tokens: Token[] | undefined, fallback: string): string => {
  if (!tokens) return decodeEntities(fallback);
  let out = "";
  for (const t of tokens) {
    switch (t.type) {
      case "br":
        out += "\n";
        break;
      case "image":
        out += (t as Tokens.Image).text;
        break;
      case "html":
        out += (t as Tokens.HTML).text.replace(/<[^>]{0,1000}>/g, "");
        break;
      case "codespan":
        out += decodeEntities((t as Tokens.Codespan).text);
        break;
      default: {
        const nested = "tokens" in t && Array.isArray(t.tokens) ? (t.tokens as Token[]) : undefined;
        // A newline inside inline text is a soft break, which renders as a space.
        out += nested ? inlineText(nested, "") : decodeEntities("text" in t ? String(t.text) : "").replace(/\n/g, " ");
      }
    }
  }
  return out;
};

const clean = (text: string): string =>
  text
    .replace(/[ \t]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .trim();

/** A paragraph made of one kind of inline token only (ignoring whitespace) is that kind: a link or an image. */
const soleInline = (tokens: Token[] | undefined): Token | null => {
  const meaningful = (tokens ?? []).filter((t) => !(t.type === "text" && (t as Tokens.Text).text.trim() === ""));
  return meaningful.length === 1 ? (meaningful[0] ?? null) : null;
};

const paragraphElement = (token: Tokens.Paragraph): ParsedElement | null => {
  const text = clean(inlineText(token.tokens, token.text));
  if (!text) return null;
  const base = { text, markdown: token.raw.trim(), pageNumber: null };
  const sole = soleInline(token.tokens);
  if (sole?.type === "image") return { ...base, type: "Image", metadata: { image_url: (sole as Tokens.Image).href } };
  if (sole?.type === "link") return { ...base, type: "Link", metadata: { link_url: (sole as Tokens.Link).href } };
  return { ...base, type: isEmailAddress(text) ? "EmailAddress" : "NarrativeText" };
};

const tableElement = (token: Tokens.Table): ParsedElement => {
  const header = token.header.map((c) => clean(inlineText(c.tokens, c.text)));
  const rows = token.rows.map((r) => r.map((c) => clean(inlineText(c.tokens, c.text))));
  const all = [header, ...rows];
  return {
    type: "Table",
    text: rowsToText(all),
    html: rowsToHtml({ rows: all }),
    markdown: token.raw.trim(),
    pageNumber: null,
  };
};

/** List items and their nested lists, depth-first, so document order is kept; depth 0 is the outermost list. */
const listElements = (token: Tokens.List, depth: number): ParsedElement[] => {
  const out: ParsedElement[] = [];
  for (const item of token.items) {
    const own = item.tokens.filter((t) => t.type !== "list");
    const text = clean(
      own
        .map((t) => inlineText("tokens" in t ? (t.tokens as Token[]) : undefined, "text" in t ? String(t.text) : ""))
        .join("\n"),
    );
    if (text) {
      const metadata: Record<string, unknown> = { category_depth: depth };
      if (item.task) metadata.checked = item.checked ?? false;
      out.push({ type: "ListItem", text, markdown: item.raw.trim(), pageNumber: null, metadata });
    }
    for (const nested of item.tokens) {
      if (nested.type === "list") out.push(...listElements(nested as Tokens.List, depth + 1));
    }
  }
  return out;
};

const blockElements = (tokens: Token[]): ParsedElement[] => {
  const out: ParsedElement[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "heading": {
        const t = token as Tokens.Heading;
        const text = clean(inlineText(t.tokens, t.text));
        if (text)
          out.push({
            type: "Title",
            text,
            markdown: t.raw.trim(),
            pageNumber: null,
            metadata: { category_depth: t.depth },
          });
        break;
      }
      case "paragraph": {
        const element = paragraphElement(token as Tokens.Paragraph);
        if (element) out.push(element);
        break;
      }
      case "list":
        out.push(...listElements(token as Tokens.List, 0));
        break;
      case "code": {
        const t = token as Tokens.Code;
        if (t.text.trim()) {
          out.push({
            type: "CodeSnippet",
            text: t.text,
            markdown: t.raw.trim(),
            pageNumber: null,
            metadata: { language: t.lang?.trim() || null },
          });
        }
        break;
      }
      case "table":
        out.push(tableElement(token as Tokens.Table));
        break;
      case "blockquote": {
        const t = token as Tokens.Blockquote;
        const text = clean(
          blockElements(t.tokens)
            .map((e) => e.text)
            .join("\n"),
        );
        if (text)
          out.push({
            type: "NarrativeText",
            text,
            markdown: t.raw.trim(),
            pageNumber: null,
            metadata: { blockquote: true },
          });
        break;
      }
      case "html": {
        const t = token as Tokens.HTML;
        const text = clean(decodeEntities(t.text.replace(/<[^>]{0,1000}>/g, " ")));
        if (text)
          out.push({ type: "UncategorizedText", text, markdown: t.raw.trim(), html: t.text.trim(), pageNumber: null });
        break;
      }
      case "text": {
        const t = token as Tokens.Text;
        const text = clean(inlineText(t.tokens, t.text));
        if (text) out.push({ type: "NarrativeText", text, markdown: t.raw.trim(), pageNumber: null });
        break;
      }
      default:
        // space, hr, def: structure only, no content of their own.
        break;
    }
  }
  return out;
};

/** YAML front matter would otherwise read as a setext heading; it is metadata, not content. */
const stripFrontMatter = (source: string): string => {
  if (!source.startsWith("---\n")) return source;
  const end = source.indexOf("\n---\n", 4);
  return end === -1 ? source : source.slice(end + 5);
};

export const partitionMarkdownText = (source: string): ParsedElement[] =>
  blockElements(marked.lexer(stripFrontMatter(source.replace(/\r\n?/g, "\n")), { gfm: true }));

export const partitionMarkdown = ({ bytes }: { bytes: Uint8Array }): PartitionResult => {
  const { text } = decodeText({ bytes });
  return { elements: partitionMarkdownText(text), totalPages: null, warnings: [] };
};

/** Markdown normalizes only line endings (partitionMarkdownText): NULs and form feeds stay as they are. */
const markdownLines = (chunks: AsyncIterable<string>) => linesOf(chunks, (text) => text.replace(/\r\n?/g, "\n"));

/** A reference definition ("[id]: url"): its links may be used anywhere in the document, so it is read whole. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/;
const FENCE = /^\s*(`{3,}|~{3,})/;
/** HTML blocks that may hold blank lines (CommonMark types 1–5), with the text that ends each. */
const HTML_BLOCKS: [RegExp, RegExp][] = [
  [/^ {0,3}<(script|pre|style|textarea)(\s|>|$)/i, /<\/(script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
/** Markdown read in pieces of about this many characters. */
const SEGMENT_CHARS = 256 * 1024;

/**
 * Cuts a document's lines into pieces that lex as they do inside the whole document: a cut goes only after a blank
 * line, before a line that starts at the margin (no list continuation, no indented code), outside fenced code and
 * outside HTML blocks that may hold blank lines. Each piece ends with its newline.
 */
const segmenter = () => {
  let lines: string[] = [];
  let size = 0;
  let fence: string | null = null;
  let htmlEnd: RegExp | null = null;
  let afterBlank = false;
  const track = (line: string) => {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
    } else if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = null;
    } else if (fenceMark) {
      fence = fenceMark;
    } else {
      const opened = HTML_BLOCKS.find(([start]) => start.test(line));
      if (opened && !opened[1].test(line.replace(opened[0], ""))) htmlEnd = opened[1];
    }
  };
  return {
    /** The piece that ends before this line, when the line may start a new one. */
    line: (line: string): string | null => {
      let piece: string | null = null;
      if (size >= SEGMENT_CHARS && afterBlank && !fence && !htmlEnd && /^\S/.test(line)) {
        piece = lines.join("\n") + "\n";
        lines = [];
        size = 0;
      }
      track(line);
      lines.push(line);
      size += line.length + 1;
      afterBlank = line.trim() === "";
      return piece;
    },
    end: () => lines.join("\n"),
  };
};

/**
 * A Markdown file streamed a piece at a time: the elements of partitionMarkdown, handed to `emit` in order. A
 * document with reference definitions or front matter is read whole, as partitionMarkdown reads it (a definition
 * anywhere changes links everywhere).
 */
export const partitionMarkdownStream = async (
  { source }: { source: ByteSource },
  emit: (element: ParsedElement) => Promise<void>,
): Promise<Omit<PartitionResult, "elements">> => {
  const decoded = await decodeTextStream({ source });
  let whole = false;
  let first = true;
  for await (const line of markdownLines(decoded.chunks)) {
    if ((first && line === "---") || REFERENCE_DEFINITION.test(line)) whole = true;
    first = false;
    if (whole) break;
  }
  if (whole) {
    let text = "";
    for await (const chunk of decoded.again()) text += chunk;
    for (const element of partitionMarkdownText(text)) await emit(element);
    return { totalPages: null, warnings: [] };
  }
  const pieces = segmenter();
  const lexPiece = async (piece: string) => {
    for (const element of blockElements(marked.lexer(piece, { gfm: true }))) await emit(element);
  };
  for await (const line of markdownLines(decoded.again())) {
    const piece = pieces.line(line);
    if (piece !== null) await lexPiece(piece);
  }
  await lexPiece(pieces.end());
  return { totalPages: null, warnings: [] };
};
