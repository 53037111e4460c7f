import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import { BODY, PAGE, put } from "./test-fixtures";

/** Justified list items in a two-column page: lines cut at their stretched spaces are text, not table rows. */

const SIZE = 9.5;
const PITCH = 12;
const COLUMN = 220;

/** Words spread over the column's width, every space stretched alike, as a justifying typesetter sets a line. */
const justify = (page: PDFPage, font: PDFFont, words: string[], x: number, top: number, width = COLUMN) => {
  const inked = words.reduce((w, word) => w + font.widthOfTextAtSize(word, SIZE), 0);
  const gap = (width - inked) / (words.length - 1);
  let at = x;
  for (const word of words) {
    put(page, word, at, top, SIZE, font);
    at += font.widthOfTextAtSize(word, SIZE) + gap;
  }
};

const ITEMS = [
  ["1. Remove", "energy", "water", "staff", "level"],
  ["2. Press", "storage", "measure", "the", "growth"],
  ["3. Connect", "program", "county", "network"],
  ["4. Check", "agency", "policy", "request", "value"],
  ["5. Insert", "water", "access", "design", "method"],
];

/** Prose wrapped to the column from `top`, `count` lines. */
const prose = (page: PDFPage, font: PDFFont, x: number, top: number, count: number) => {
  const words = `${BODY} ${BODY} ${BODY} ${BODY}`.split(" ");
  let line = "";
  let at = 0;
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, SIZE) <= COLUMN) line = next;
    else if (at < count) {
      put(page, line, x, top + at++ * PITCH, SIZE, font);
      line = word;
    }
  }
};

/**
 * A two-column page: in the left column a paragraph, then numbered steps, each a justified line and a short last
 * line, then another paragraph; prose all down the right column.
 */
const buildJustifiedStepsPdf = async (table?: (page: PDFPage, font: PDFFont) => void) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  prose(page, font, 72, 72, 6);
  ITEMS.forEach((words, i) => {
    justify(page, font, words, 72, 150 + 2 * i * PITCH);
    put(page, "sample data method program.", 90, 150 + (2 * i + 1) * PITCH, SIZE, font);
  });
  prose(page, font, 72, 280, 6);
  prose(page, font, 320, 72, 30);
  table?.(page, font);
  return doc.save();
};

const parse = async (bytes: Uint8Array) =>
  (await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" })).elements;

describe("justified lines", () => {
  it("reads numbered steps justified across their column as list items, not as a table", async () => {
    const elements = await parse(await buildJustifiedStepsPdf());
    expect(elements.filter((e) => e.type === "Table")).toHaveLength(0);
    const items = elements.filter((e) => e.type === "ListItem").map((e) => e.text);
    expect(items).toEqual(ITEMS.map((words) => `${words.join(" ")} sample data method program.`));
  });

  it("keeps a table whose columns line up across rows at gaps of different widths", async () => {
    const cells = [
      ["Pump", "storage", "level"],
      ["Valve", "water", "pressure"],
      ["Filter", "county", "flow"],
      ["Motor", "energy", "speed"],
    ];
    const elements = await parse(
      await buildJustifiedStepsPdf((page, font) =>
        cells.forEach((row, r) =>
          row.forEach((text, c) => put(page, text, [72, 150, 260][c] ?? 0, 400 + r * PITCH, SIZE, font)),
        ),
      ),
    );
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(tables[0]?.text).toContain("Valve");
  });

  it("finds the gutter between two columns of justified items on the same rows", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    // Words of varied lengths in a fixed shuffled order: no two lines put their spaces at the same places.
    const vocabulary = "staff water level energy program county network access report policy quality measure".split(
      " ",
    );
    let seed = 7;
    const word = () => {
      seed = (seed * 31 + 11) % 97;
      return vocabulary[seed % vocabulary.length] ?? "";
    };
    const expected: string[] = [];
    for (const x of [72, 320]) {
      for (let i = 0; i < 8; i++) {
        const lines = [
          [`${i + 1}. Check`, word(), word(), word()],
          [word(), word(), word(), word(), word()],
        ];
        lines.forEach((words, k) => justify(page, font, words, x + 18 * k, 100 + (3 * i + k) * PITCH, COLUMN - 18 * k));
        put(page, "sample data method.", x + 18, 100 + (3 * i + 2) * PITCH, SIZE, font);
        expected.push(`${lines.flat().join(" ")} sample data method.`);
      }
    }
    const elements = await parse(await doc.save());
    expect(elements.filter((e) => e.type === "Table")).toHaveLength(0);
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual(expected);
  });
});
