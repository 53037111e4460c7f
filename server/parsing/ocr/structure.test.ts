import { describe, expect, it } from "vitest";
import { bodyStats, buildUnits, classifyUnits } from "./structure";
import { unionBox, type OcrBlock, type OcrLine, type OcrPage, type OcrWord } from "./types";

/** Typing of OCR output, on hand-made Tesseract results (no OCR run): sizes and places are exact. */

const PAGE = { width: 1000, height: 1400 };

const line = (text: string, left: number, top: number, height = 20, confidence = 95): OcrLine => {
  let x = left;
  const words: OcrWord[] = text.split(" ").map((t) => {
    const w = {
      text: t,
      left: x,
      top,
      right: x + Math.max(1, t.length) * height * 0.5,
      bottom: top + height,
      confidence,
    };
    x = w.right + height * 0.3;
    return w;
  });
  return { ...unionBox(words), text, confidence, words, rowHeight: height };
};

/** A bullet glyph as Tesseract reports it: a small box in the middle of the line, then the item's words. */
const bulletLine = (glyph: string, text: string, left: number, top: number, height = 20): OcrLine => {
  const rest = line(text, left + height, top, height);
  const mark: OcrWord = {
    text: glyph,
    left,
    right: left + height * 0.4,
    top: top + height * 0.3,
    bottom: top + height * 0.7,
    confidence: 80,
  };
  const words = [mark, ...rest.words];
  return { ...unionBox(words), text: `${glyph} ${text}`, confidence: 90, words, rowHeight: height };
};

const block = (...paragraphs: OcrLine[][]): OcrBlock => {
  const ps = paragraphs.map((lines) => ({
    ...unionBox(lines),
    text: lines.map((l) => l.text).join("\n"),
    confidence: 90,
    lines,
  }));
  return { ...unionBox(ps), text: "", confidence: 90, paragraphs: ps };
};

const ocrPage = (...blocks: OcrBlock[]): OcrPage => ({ ...PAGE, text: "", confidence: 90, blocks });

const typed = (page: OcrPage) => {
  const units = buildUnits(page, {});
  return classifyUnits(units, PAGE, bodyStats(units)).map((c) => [c.type, c.text]);
};

const body = (top: number, n = 3) =>
  Array.from({ length: n }, (_, i) =>
    line("Quarry reads every page and keeps the box of each element", 100, top + i * 26),
  );

describe("ocr structure", () => {
  it("types a scanned page: running header, title, prose, list items, e-mail, page number", () => {
    const page = ocrPage(
      block([line("Quarry Engineering Notes", 100, 40, 16)]),
      block([line("Ingestion Report", 100, 200, 44)]),
      block(body(280)),
      block(
        [bulletLine("•", "First finding about speed", 100, 400)],
        [bulletLine("e", "Second finding about chunks", 100, 430), line("continued on a second line", 120, 456)],
        [line("1. Third finding, numbered", 100, 490)],
      ),
      block([line("support@quarry.example.com", 100, 560)]),
      block([line("7", 500, 1340, 16)]),
    );
    expect(typed(page)).toEqual([
      ["Header", "Quarry Engineering Notes"],
      ["Title", "Ingestion Report"],
      ["NarrativeText", "Quarry reads every page and keeps the box of each element ".repeat(3).trim()],
      ["ListItem", "First finding about speed"],
      ["ListItem", "Second finding about chunks continued on a second line"],
      ["ListItem", "1. Third finding, numbered"],
      ["EmailAddress", "support@quarry.example.com"],
      ["PageNumber", "7"],
    ]);
  });

  it("a numbered section heading in body size is a title; a lone number on the body is not", () => {
    const page = ocrPage(block([line("3.1 Layout Detection Models", 100, 300)]), block(body(340)));
    expect(typed(page).map(([t]) => t)).toEqual(["Title", "NarrativeText"]);
  });

  it("joins words broken at line ends, and paragraphs Tesseract cut in two", () => {
    const page = ocrPage(
      block(
        [
          line("The parser keeps every docu-", 100, 300),
          line("ment it reads and every page of the long report", 100, 326),
        ],
        // Same left edge and size, ordinary line spacing, the line before runs the full width: one paragraph.
        [line("so nothing is lost between pages of it.", 100, 352)],
      ),
    );
    expect(typed(page)).toEqual([
      [
        "NarrativeText",
        "The parser keeps every document it reads and every page of the long report so nothing is lost between pages of it.",
      ],
    ]);
  });

  it("leaves out specks and marks, keeps unsure text untyped, and sets vertical text aside", () => {
    const vertical: OcrLine = { ...line("arXiv:2103.15348v2", 20, 300), right: 40, bottom: 700 };
    const page = ocrPage(
      block([line("~ | ~", 100, 200, 20, 20)]),
      block([line("©", 100, 250)]),
      block([line("Heading read with doubt", 100, 300, 40, 35)]),
      block(body(360)),
      block([vertical]),
    );
    expect(typed(page).map(([t]) => t)).toEqual(["UncategorizedText", "NarrativeText", "UncategorizedText"]);
  });

  it("words taken by a table leave the text", () => {
    const rows = [line("Format Pages", 100, 300), line("PDF 12", 100, 330)];
    const taken = new Set(rows.flatMap((l) => l.words));
    const units = buildUnits(ocrPage(block(rows), block(body(400))), { exclude: taken });
    expect(units.map((u) => u.text)).toEqual([
      body(400)
        .map((l) => l.text)
        .join(" "),
    ]);
  });
});
