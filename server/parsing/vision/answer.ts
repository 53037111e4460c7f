import * as cheerio from "cheerio";
import { z } from "zod";
import { printable } from "@/server/errors";
import type { DomNode } from "../html-dom";
import { tableToElementParts } from "../html-tables";
import { rowsToHtml, rowsToText } from "../table-html";
import { ELEMENT_TYPES, type ElementType } from "../types";

/**
 * What a vision model answers for one page, checked and normalised. Models drift from the schema in small ways
 * (a type in snake_case, a number as text, a box in pixels); those are repaired here. Only an answer that is not a
 * JSON object with an `elements` list counts as malformed.
 */

/** A page never holds more than this many elements; more is a model looping on its output. */
export const MAX_ELEMENTS_PER_PAGE = 1000;
const MAX_TEXT = 50_000;
const MAX_HTML = 200_000;

/** Box as fractions of the image, top-left origin, x0 < x1 and y0 < y1. */
export type UnitBox = { x0: number; y0: number; x1: number; y1: number };

export type VisionElement = { type: ElementType; text: string; html: string | null; box: UnitBox | null };

const TYPE_BY_KEY = new Map(ELEMENT_TYPES.map((t) => [t.toLowerCase(), t]));

/** "Title", "title", "narrative_text", "Narrative Text" → the element type; anything else is UncategorizedText. */
export const normalizeType = (value: unknown): ElementType => {
  if (typeof value !== "string") return "UncategorizedText";
  return TYPE_BY_KEY.get(value.replace(/[\s_-]+/g, "").toLowerCase()) ?? "UncategorizedText";
};

const number = z.union([z.number(), z.string().trim().min(1).pipe(z.coerce.number())]);

const elementSchema = z.object({
  type: z.unknown(),
  text: z.union([z.string(), z.number().transform(String)]).nullish(),
  html: z.string().nullish().catch(null),
  bbox: z.array(number).length(4).nullish().catch(null),
});

const answerSchema = z.union([
  z.object({ elements: z.array(z.unknown()) }),
  // Some models answer the list itself.
  z.array(z.unknown()).transform((elements) => ({ elements })),
]);

/**
 * A box from the model. Asked for fractions; values above 2 are taken as pixels of the image sent (what some
 * model families return), and a box outside the image is dropped. A fraction a little past the edge is clamped;
 * a box with no area is no box.
 */
export const normalizeBox = (
  bbox: readonly number[] | null | undefined,
  image: { width: number; height: number },
): UnitBox | null => {
  if (!bbox || bbox.length !== 4 || !bbox.every(Number.isFinite)) return null;
  let [a = 0, b = 0, c = 0, d = 0] = bbox;
  if (Math.max(a, b, c, d) > 2) {
    if (Math.max(a, c) > image.width * 1.01 || Math.max(b, d) > image.height * 1.01) return null;
    [a, b, c, d] = [a / image.width, b / image.height, c / image.width, d / image.height];
  }
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const box = {
    x0: clamp(Math.min(a, c)),
    y0: clamp(Math.min(b, d)),
    x1: clamp(Math.max(a, c)),
    y1: clamp(Math.max(b, d)),
  };
  return box.x1 - box.x0 > 0 && box.y1 - box.y0 > 0 ? box : null;
};

/**
 * A model's table markup rebuilt as a clean <table> (cells as text, header cells and spans kept, everything else
 * dropped): nothing a model writes reaches a client as markup it did not mean.
 */
const cleanTable = (html: string): { html: string; text: string } | null => {
  const $ = cheerio.load(html.slice(0, MAX_HTML));
  const table = $("table").first().get(0);
  if (!table) return null;
  const parts = tableToElementParts(table as unknown as DomNode);
  return parts ? { html: parts.html, text: rowsToText(parts.rows) } : null;
};

/** A table the model gave as text only: rows on lines, cells split by tabs or pipes. */
const tableFromText = (text: string): string | null => {
  const rows = text
    .split("\n")
    .map((line) => line.replace(/^\s*\|/, "").replace(/\|\s*$/, ""))
    .filter((line) => line.trim() !== "" && !/^[\s|:-]+$/.test(line))
    .map((line) => line.split(/\t|\s*\|\s*/).map((c) => c.trim()));
  return rows.length > 0 ? rowsToHtml({ rows, headerRows: 1 }) : null;
};

const cleanText = (text: string) =>
  printable(text.slice(0, MAX_TEXT))
    .replace(/[ \t]+\n/g, "\n")
    .trim();

/** Strips the ```json fence some models put around their answer even in JSON mode. */
const unfence = (text: string) => {
  const fenced = /^\s*```[a-z]*\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return fenced?.[1] ?? text;
};

export type ParsedAnswer = { ok: true; elements: VisionElement[]; dropped: number } | { ok: false; error: string };

/** Parses one answer. Elements that make no sense alone (no text, no picture) are dropped and counted. */
export const parseVisionAnswer = (raw: string, image: { width: number; height: number }): ParsedAnswer => {
  let json: unknown;
  try {
    json = JSON.parse(unfence(raw));
  } catch (error) {
    return { ok: false, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const answer = answerSchema.safeParse(json);
  if (!answer.success) return { ok: false, error: 'expected an object {"elements": [...]}' };

  const elements: VisionElement[] = [];
  let dropped = 0;
  for (const item of answer.data.elements.slice(0, MAX_ELEMENTS_PER_PAGE)) {
    const parsed = elementSchema.safeParse(item);
    if (!parsed.success) {
      dropped++;
      continue;
    }
    const type = normalizeType(parsed.data.type);
    const box = normalizeBox(parsed.data.bbox, image);
    let text = cleanText(parsed.data.text ?? "");
    let html: string | null = null;
    if (type === "Table") {
      const table = parsed.data.html ? cleanTable(parsed.data.html) : null;
      html = table?.html ?? (text ? tableFromText(text) : null);
      if (table && table.text) text = table.text;
    }
    // A picture without words is still a picture when we know where it is (it is cropped from the page).
    const picture = (type === "Image" || type === "Chart") && box !== null;
    if (!text && !picture) {
      dropped++;
      continue;
    }
    elements.push({ type, text, html, box });
  }
  dropped += Math.max(0, answer.data.elements.length - MAX_ELEMENTS_PER_PAGE);
  return { ok: true, elements, dropped };
};
