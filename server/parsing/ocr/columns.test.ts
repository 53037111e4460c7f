import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { describe, expect, it } from "vitest";
import { orderLines } from "./columns";
import { recognizePp } from "./ppocr";
import type { PixelBox } from "./types";

const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

type Named = PixelBox & { name: string };
const line = (name: string, left: number, top: number, width: number, height = 20): Named => ({
  name,
  left,
  top,
  right: left + width,
  bottom: top + height,
});

const AUTHORS = [
  ["Alice Marten", "Harbor University", "alice@harbor.edu"],
  ["Bruno Keller", "Lakeside Institute", "bruno@lakeside.org"],
  ["Chen Wu", "Northfield College", "chen@northfield.ac"],
];

describe("reading order of columns", () => {
  it("reads a three-column author block column by column, under a full-width title", () => {
    const lines: Named[] = [line("title", 100, 40, 800, 30)];
    AUTHORS.forEach((author, col) =>
      author.forEach((text, row) => lines.push(line(text, 60 + col * 320, 120 + row * 28, 220))),
    );
    lines.push(line("body 1", 60, 260, 860), line("body 2", 60, 288, 860));
    const order = orderLines(lines).flatMap((group) => group.map((l) => l.name));
    expect(order).toEqual(["title", ...AUTHORS.flat(), "body 1", "body 2"]);
  });

  it("reads two text columns down the left one first, with lines of a row kept apart", () => {
    const lines: Named[] = [];
    for (let i = 0; i < 5; i++) lines.push(line(`L${i}`, 50, 100 + i * 25, 400), line(`R${i}`, 500, 100 + i * 25, 400));
    lines.push(line("L5", 50, 225, 200));
    const groups = orderLines(lines);
    expect(groups.map((g) => g.map((l) => l.name))).toEqual([
      ["L0", "L1", "L2", "L3", "L4", "L5"],
      ["R0", "R1", "R2", "R3", "R4"],
    ]);
  });

  it("reads a scanned paper's two columns one after the other, past a line that narrows the gutter and a margin stamp", () => {
    // Line height 20: a gutter is 16 px. The columns are 20 px apart; one left line reaches 10 px from the right
    // column (a padded OCR box), which must not end the columns. A rotated margin stamp at the far left is read
    // apart, and the heading above the left column's first line stays with it.
    const lines: Named[] = [line("heading", 100, 80, 150), line("R0", 520, 80, 380)];
    for (let i = 1; i < 8; i++) {
      lines.push(line(`L${i}`, 100, 80 + i * 25, i === 4 ? 410 : 400), line(`R${i}`, 520, 80 + i * 25, 380));
      if (i >= 2 && i <= 5) lines.push(line(`stamp${i}`, 10, 80 + i * 25, 20));
    }
    lines.push(line("footer", 100, 300, 800));
    const order = orderLines(lines).map((g) => g.map((l) => l.name));
    expect(order).toEqual([
      ["stamp2", "stamp3", "stamp4", "stamp5"],
      ["heading", "L1", "L2", "L3", "L4", "L5", "L6", "L7"],
      ["R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7"],
      ["footer"],
    ]);
  });

  it("reads an author block whose two centred columns sit over the text columns before the text", () => {
    // Line height 20. The authors' gutter (400–560) lies over the text gutter (460–500); a blank strip of two line
    // heights separates them, and the text columns reach past the authors' ink on both sides.
    const lines: Named[] = [line("title", 150, 40, 700, 30)];
    for (let row = 0; row < 3; row++) {
      lines.push(line(`A${row}`, 200, 110 + row * 25, 200), line(`B${row}`, 560, 110 + row * 25, 220));
    }
    for (let i = 0; i < 4; i++) lines.push(line(`L${i}`, 60, 225 + i * 25, 400), line(`R${i}`, 500, 225 + i * 25, 400));
    const order = orderLines(lines).flatMap((g) => g.map((l) => l.name));
    expect(order).toEqual([
      "title",
      "A0",
      "A1",
      "A2",
      "B0",
      "B1",
      "B2",
      ...["L0", "L1", "L2", "L3", "R0", "R1", "R2", "R3"],
    ]);
  });

  it("keeps two text columns whole across a blank strip at the same height in both", () => {
    // Both columns pause for a line (a heading's space on each side), with the same edges above and below.
    const lines: Named[] = [];
    for (const i of [0, 1, 2, 5, 6])
      lines.push(line(`L${i}`, 60, 100 + i * 25, 400), line(`R${i}`, 500, 100 + i * 25, 400));
    const order = orderLines(lines).map((g) => g.map((l) => l.name));
    expect(order).toEqual([
      ["L0", "L1", "L2", "L5", "L6"],
      ["R0", "R1", "R2", "R5", "R6"],
    ]);
  });

  it("keeps one column top to bottom", () => {
    const lines = [line("b", 50, 140, 300), line("a", 50, 100, 500), line("c", 50, 180, 200)];
    expect(
      orderLines(lines)
        .flat()
        .map((l) => l.name),
    ).toEqual(["a", "b", "c"]);
    expect(orderLines([])).toEqual([]);
  });

  it("orders the author block of a generated scan column by column (PP-OCR)", async () => {
    GlobalFonts.registerFromPath(FONT, "DejaVu Sans");
    const canvas = createCanvas(1100, 420);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, 1100, 420);
    ctx.fillStyle = "#000000";
    ctx.font = '34px "DejaVu Sans"';
    ctx.fillText("Retrieval for Scanned Papers", 180, 60);
    ctx.font = '22px "DejaVu Sans"';
    AUTHORS.forEach((author, col) => author.forEach((text, row) => ctx.fillText(text, 50 + col * 360, 140 + row * 36)));
    ctx.fillText("Abstract. We read three columns of authors in order.", 50, 320);
    const page = await recognizePp(canvas.toBuffer("image/png"));
    const text = page.text.replace(/\s+/g, " ");
    const at = (s: string) => text.indexOf(s);
    for (const s of [...AUTHORS.flat(), "Retrieval", "Abstract"])
      expect(at(s), `${s} in ${text}`).toBeGreaterThanOrEqual(0);
    // Each author's affiliation and address follow the name, before the next author.
    expect(at("Retrieval")).toBeLessThan(at("Alice Marten"));
    expect(at("Alice Marten")).toBeLessThan(at("Harbor University"));
    expect(at("alice@harbor.edu")).toBeLessThan(at("Bruno Keller"));
    expect(at("bruno@lakeside.org")).toBeLessThan(at("Chen Wu"));
    expect(at("chen@northfield.ac")).toBeLessThan(at("Abstract"));
    // Word boxes lie inside the image and in reading order along their line.
    const words = page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
    expect(words.every((w) => w.left >= 0 && w.right <= 1100 && w.left < w.right && w.confidence > 50)).toBe(true);
  }, 120_000);

  it("reads a generated two-column scan's columns one after the other (PP-OCR)", async () => {
    GlobalFonts.registerFromPath(FONT, "DejaVu Sans");
    const canvas = createCanvas(1240, 700);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, 1240, 700);
    ctx.fillStyle = "#000000";
    ctx.font = '30px "DejaVu Sans"';
    ctx.fillText("Two Columns on a Scanned Page", 330, 60);
    // Justified-looking columns 560 px wide with a 40 px gutter (about one line height, as in a paper).
    ctx.font = '22px "DejaVu Sans"';
    const left = ["left one alpha words here", "left two bravo words go", "left three charlie text"];
    const right = ["right one delta words here", "right two echo words go", "right three foxtrot text"];
    left.forEach((text, i) => ctx.fillText(text, 60, 140 + i * 40, 560));
    right.forEach((text, i) => ctx.fillText(text, 660, 140 + i * 40, 540));
    ctx.fillText("Closing line across the whole width of the page, under both of the columns above it.", 60, 320);
    const page = await recognizePp(canvas.toBuffer("image/png"));
    const text = page.text.replace(/\s+/g, " ");
    const at = (s: string) => text.indexOf(s);
    for (const s of ["Two Columns", "left one", "left three", "right one", "right three", "Closing"])
      expect(at(s), `${s} in ${text}`).toBeGreaterThanOrEqual(0);
    expect(at("Two Columns")).toBeLessThan(at("left one"));
    expect(at("left one")).toBeLessThan(at("left two"));
    expect(at("left three")).toBeLessThan(at("right one"));
    expect(at("right one")).toBeLessThan(at("right two"));
    expect(at("right three")).toBeLessThan(at("Closing"));
  }, 120_000);
});
