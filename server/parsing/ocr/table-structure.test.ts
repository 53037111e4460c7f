import { createCanvas } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { toGray } from "./raster";
import { findTables, tableHtml, tableText } from "./table-structure";
import type { OcrWord } from "./types";

/**
 * Table recovery on drawn lines and hand-placed word boxes: no OCR involved, so every figure here is exact.
 */

const WIDTH = 1000;
const HEIGHT = 800;

type Line = [x0: number, y0: number, x1: number, y1: number];

const page = async (lines: Line[]) => {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.fillStyle = "#000000";
  for (const [x0, y0, x1, y1] of lines) ctx.fillRect(x0, y0, Math.max(2, x1 - x0), Math.max(2, y1 - y0));
  return toGray(canvas.toBuffer("image/png"));
};

/** A word of `text` at (left, top), 11 px per character, 20 px tall. */
const word = (text: string, left: number, top: number): OcrWord => ({
  text,
  left,
  top,
  right: left + text.length * 11,
  bottom: top + 20,
  confidence: 95,
});

/** Words of a phrase laid out left to right with ordinary spaces. */
const phrase = (text: string, left: number, top: number): OcrWord[] => {
  let x = left;
  return text.split(" ").map((t) => {
    const w = word(t, x, top);
    x = w.right + 6;
    return w;
  });
};

const cellCount = (html: string) => (html.match(/<t[hd][ >]/g) ?? []).length;

describe("table structure", () => {
  it("a ruled grid with a two-level header: row and column spans, header rows as <th>", async () => {
    // Columns at 100|250|400|550|700|850; the header is two rows deep (100–150–200), with a group heading over
    // the last two columns; the line under it and the line between its sub-columns start at y=150.
    const xs = [100, 250, 400, 550, 700, 850];
    const lines: Line[] = [
      [100, 100, 850, 100],
      [550, 150, 850, 150],
      [100, 200, 850, 200],
      [100, 260, 850, 260],
      [100, 320, 850, 320],
      ...xs.filter((x) => x !== 700).map((x): Line => [x, 100, x, 320]),
      [700, 150, 700, 320],
    ];
    const gray = await page(lines);
    const words = [
      word("Name", 120, 140),
      word("Pages", 270, 140),
      word("Words", 420, 140),
      word("Results", 660, 115), // centred over the 700 boundary of its two sub-columns
      word("Speed", 570, 165),
      word("Recall", 720, 165),
      word("Alpha", 120, 220),
      word("12", 270, 220),
      word("340", 420, 220),
      word("1.5", 570, 220),
      word("0.9", 720, 220),
      ...phrase("Beta two", 120, 280),
      word("8", 270, 280),
      word("210", 420, 280),
      word("2.5", 570, 280),
      word("0.8", 720, 280),
    ];
    const tables = findTables({ gray, words, lineHeight: 20 });
    expect(tables).toHaveLength(1);
    const table = tables[0]!;
    expect(table.source).toBe("grid");
    expect([table.rowCount, table.colCount, table.headerRows]).toEqual([4, 5, 2]);
    expect(table.words.size).toBe(words.length);
    const html = tableHtml(table);
    expect(html).toBe(
      "<table><thead>" +
        '<tr><th rowspan="2">Name</th><th rowspan="2">Pages</th><th rowspan="2">Words</th><th colspan="2">Results</th></tr>' +
        "<tr><th>Speed</th><th>Recall</th></tr>" +
        "</thead><tbody>" +
        "<tr><td>Alpha</td><td>12</td><td>340</td><td>1.5</td><td>0.9</td></tr>" +
        "<tr><td>Beta two</td><td>8</td><td>210</td><td>2.5</td><td>0.8</td></tr>" +
        "</tbody></table>",
    );
    expect(cellCount(html)).toBe(16);
    expect(tableText(table).split("\n")).toEqual([
      "Name Pages Words Results",
      "Speed Recall",
      "Alpha 12 340 1.5 0.9",
      "Beta two 8 210 2.5 0.8",
    ]);
  });

  it("verticals only through the body, open sides: rows of text between two rules become rows", async () => {
    // Top rule, header rule, bottom rule; column separators only between the rules, none at the edges.
    const lines: Line[] = [
      [100, 100, 800, 100],
      [100, 140, 800, 140],
      [100, 330, 800, 330],
      [260, 100, 260, 330],
      [420, 100, 420, 330],
    ];
    const gray = await page(lines);
    const rows = [
      ["Dataset", "Model", "Notes"],
      ["PubLayNet", "F/M", "Modern papers"],
      ["PRImA", "M", "Scanned magazines"],
      ["Newspaper", "F", "US newspapers"],
      ["TableBank", "F", "Table regions"],
    ];
    const words = rows.flatMap((row, r) => {
      const top = r === 0 ? 110 : 150 + (r - 1) * 44;
      return [...phrase(row[0]!, 110, top), ...phrase(row[1]!, 280, top), ...phrase(row[2]!, 440, top)];
    });
    const [table] = findTables({ gray, words, lineHeight: 20 });
    expect(table?.source).toBe("grid");
    expect([table?.rowCount, table?.colCount, table?.headerRows]).toEqual([5, 3, 1]);
    const html = tableHtml(table!);
    expect(cellCount(html)).toBe(15);
    expect(html).toContain("<thead><tr><th>Dataset</th><th>Model</th><th>Notes</th></tr></thead>");
    expect(html).toContain("<tr><td>PRImA</td><td>M</td><td>Scanned magazines</td></tr>");
  });

  it("verticals only after the first column and at the edge: the other columns come from the words", async () => {
    const lines: Line[] = [
      [100, 100, 700, 100],
      [100, 170, 700, 170],
      [100, 300, 700, 300],
      [220, 100, 220, 300],
      [700, 100, 700, 300],
    ];
    const gray = await page(lines);
    const words = [
      word("Loss", 110, 110),
      ...phrase("Retrieval accuracy", 335, 110), // centred over the three columns below it
      ...["Top-1", "Top-5", "Top-20"].map((t, i) => word(t, 250 + i * 160, 140)),
      ...[
        ["NLL", "44.9", "66.8", "78.1"],
        ["Triplet", "41.6", "65.0", "77.2"],
        ["L2", "43.5", "64.7", "76.1"],
      ].flatMap((row, r) => [
        word(row[0]!, 110, 190 + r * 36),
        ...row.slice(1).map((v, i) => word(v, 250 + i * 160, 190 + r * 36)),
      ]),
    ];
    const [table] = findTables({ gray, words, lineHeight: 20 });
    expect([table?.source, table?.rowCount, table?.colCount]).toEqual(["grid", 5, 4]);
    const html = tableHtml(table!);
    expect(html).toContain('<th colspan="3">Retrieval accuracy</th>');
    expect(html).toContain("<tr><td>Triplet</td><td>41.6</td><td>65.0</td><td>77.2</td></tr>");
  });

  it("horizontal rules only (a typeset table): columns from the gaps between words", async () => {
    const gray = await page([
      [100, 100, 700, 100],
      [100, 140, 700, 140],
      [100, 290, 700, 290],
    ]);
    const rows = [
      ["Format", "Pages", "Seconds"],
      ["PDF", "12", "3.4"],
      ["Word document", "8", "1.2"],
      ["Image", "1", "2.7"],
    ];
    const words = rows.flatMap((row, r) => {
      const top = r === 0 ? 110 : 150 + (r - 1) * 44;
      return [...phrase(row[0]!, 110, top), ...phrase(row[1]!, 360, top), ...phrase(row[2]!, 560, top)];
    });
    const [table] = findTables({ gray, words, lineHeight: 20 });
    expect(table?.source).toBe("rules");
    expect([table?.rowCount, table?.colCount, table?.headerRows]).toEqual([4, 3, 1]);
    expect(tableHtml(table!)).toContain("<tr><td>Word document</td><td>8</td><td>1.2</td></tr>");
  });

  it("aligned columns without lines make a table; prose and two-column text do not", async () => {
    const gray = await page([]);
    const grid = [
      ["Region", "2022", "2023"],
      ["North", "1,204", "1,388"],
      ["South", "981", "1,002"],
      ["East", "1,577", "1,610"],
    ];
    const aligned = grid.flatMap((row, r) => [
      word(row[0]!, 100, 400 + r * 36),
      word(row[1]!, 400, 400 + r * 36),
      word(row[2]!, 600, 400 + r * 36),
    ]);
    const prose = [0, 1, 2, 3].flatMap((r) =>
      phrase("Quarry reads every page and keeps the box of each element it finds", 100, 100 + r * 30),
    );
    const twoColumns = [0, 1, 2, 3].flatMap((r) => [
      ...phrase("the left column of running text goes on", 60, 600 + r * 30),
      ...phrase("while the right column says other things", 540, 600 + r * 30),
    ]);
    const tables = findTables({ gray, words: [...prose, ...aligned, ...twoColumns], lineHeight: 20 });
    expect(tables).toHaveLength(1);
    expect(tables[0]?.source).toBe("alignment");
    expect([tables[0]?.rowCount, tables[0]?.colCount]).toEqual([4, 3]);
    expect(tables[0]?.words.size).toBe(aligned.length);
  });

  it("a frame around a paragraph is not a table", async () => {
    const gray = await page([
      [80, 80, 900, 80],
      [80, 300, 900, 300],
      [80, 80, 80, 300],
      [900, 80, 900, 300],
    ]);
    const words = [0, 1, 2].flatMap((r) => phrase("A boxed note with some ordinary words in it", 100, 120 + r * 40));
    expect(findTables({ gray, words, lineHeight: 20 })).toEqual([]);
  });
});
