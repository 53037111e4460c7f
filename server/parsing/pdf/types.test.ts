import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE, put } from "./test-fixtures";

/**
 * Element types of the text layer on small PDFs made here: running heads with changing page numbers, footnote
 * markers, wrapped list items, captions across lines and code listings.
 */

const body = (page: PDFPage, font: PDFFont, top: number, n: number) => {
  for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${n}.${i}`, 72, top + i * 14, 11, font);
};

describe("element types of the text layer", () => {
  it("types running heads and feet whose page number changes as Header and Footer, chapters and roman pages too", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const roman = ["i", "ii", "iii"];
    const chapters = ["Introduction", "Methods", "Results"];
    for (let n = 1; n <= 9; n++) {
      const page = doc.addPage([PAGE.width, PAGE.height]);
      if (n <= 3) {
        put(page, "© Copyright 2026 Quarry Labs", 72, 750, 9, font);
        put(page, roman[n - 1] ?? "", 530, 750, 9, font);
      } else {
        const chapter = Math.floor((n - 4) / 2);
        put(page, `Chapter ${chapter + 1} ${chapters[chapter]}`, 72, 40, 9, font);
        put(page, String(n - 3), 530, 40, 9, font);
      }
      body(page, font, 120, n);
    }
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const margins = elements.filter((e) => /Copyright|Chapter/.test(e.text));
    expect(margins).toHaveLength(9);
    expect(margins.filter((e) => e.type === "Footer").map((e) => e.pageNumber)).toEqual([1, 2, 3]);
    expect(margins.filter((e) => e.type === "Header").map((e) => e.pageNumber)).toEqual([4, 5, 6, 7, 8, 9]);
    // The body is untouched.
    expect(elements.filter((e) => e.type === "NarrativeText")).toHaveLength(9);
  });

  it("types a three-line foot whose page number sits on its middle line as Footer on every page", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 4; n++) {
      const page = doc.addPage([PAGE.width, PAGE.height]);
      body(page, font, 120, n);
      // A vendor manual's foot: copyright, then document code and page number, then terms; one block of three lines.
      put(page, "© 2023 Example Corp.", 260, 730, 8, font);
      put(page, "3HE 19220 AAAB TQZZA 01", 40, 741, 8, font);
      put(page, String(90 + n), 560, 741, 8, font);
      put(page, "Use subject to Terms available at: www.example.com/terms.", 200, 752, 8, font);
    }
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const feet = elements.filter((e) => /Example Corp|TQZZA|Terms/.test(e.text));
    expect(feet.length).toBeGreaterThanOrEqual(4);
    expect(feet.every((e) => e.type === "Footer")).toBe(true);
    expect(new Set(feet.map((e) => e.pageNumber))).toEqual(new Set([1, 2, 3, 4]));
    expect(elements.filter((e) => e.type === "NarrativeText")).toHaveLength(4);
  });
});

describe("lettered list items", () => {
  it("keeps a lettered list, and types lines opening with the same letter in a row (honorifics, initials) as text", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const lines = [
      "M. Gaston Tremblay, conseiller municipal",
      "M. David Bouchard, conseiller municipal",
      "a. Adoption of the agenda",
      "b. Questions from the public",
    ];
    lines.forEach((line, i) => put(page, line, 72, 100 + i * 30, 11, font));
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (start: string) => elements.find((e) => e.text.startsWith(start))?.type;
    expect(typeOf("M. Gaston")).not.toBe("ListItem");
    expect(typeOf("M. David")).not.toBe("ListItem");
    expect(typeOf("a. Adoption")).toBe("ListItem");
    expect(typeOf("b. Questions")).toBe("ListItem");
  });
});

describe("footnote marks", () => {
  it("splits a raised, smaller mark from the word it touches, and from its footnote's first word", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const line = "Questions go to the Resource Center";
    put(page, line, 72, 100, 11, font);
    const after = 72 + font.widthOfTextAtSize(line, 11);
    page.drawText("1", { x: after, y: PAGE.height - 100 - 11 + 4, size: 7, font });
    put(page, " of the library, open all week.", after + font.widthOfTextAtSize("1", 7), 100, 11, font);
    // An exponent after a single letter stays with it.
    put(page, "The area grows with x", 72, 130, 11, font);
    page.drawText("2", {
      x: 72 + font.widthOfTextAtSize("The area grows with x", 11),
      y: PAGE.height - 141 + 4,
      size: 7,
      font,
    });
    page.drawText("1", { x: 72, y: PAGE.height - 700 - 9 + 3, size: 6, font });
    put(page, "The center opens at nine on weekdays.", 72 + font.widthOfTextAtSize("1", 6), 700, 9, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const text = elements.map((e) => e.text).join("\n");
    expect(text).toContain("Questions go to the Resource Center 1 of the library, open all week.");
    expect(text).toContain("The area grows with x2");
    expect(text).toContain("1 The center opens at nine on weekdays.");
  });
});

describe("list items and captions", () => {
  it("keeps a list item's wrapped lines in the item, however ragged, and a caption's lines in one caption", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    let page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "The parser reads these inputs for every build of a source.", 60, 60, 10, font);
    const item = ["Spreadsheets, whose sheets become tables with a header row", "and body rows", "as the sheet holds."];
    put(page, "•", 72, 84, 10, font);
    item.forEach((text, i) => put(page, text, 84, 84 + i * 12, 10, font));
    put(page, "•", 72, 124, 10, font);
    put(page, "Office files, converted first.", 84, 124, 10, font);
    // Next page: two columns, with a caption across them whose short last line fits in the left one.
    page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 12; i++) {
      put(page, BODY.slice(i % 5, 50 + (i % 5)), 60, 160 + i * 12, 10, font);
      put(page, BODY.slice(10 + (i % 5), 60 + (i % 5)), 322, 160 + i * 12, 10, font);
    }
    put(page, "Figure 3: Recall at ten of the four embedding models, with and without the two Ef-", 60, 320, 9, font);
    put(
      page,
      "fects of re-ranking on the held-out queries of the test set are shown on the right side.",
      60,
      331,
      9,
      font,
    );
    put(page, "Both axes are logarithmic.", 60, 342, 9, font);
    for (let i = 0; i < 12; i++) {
      put(page, BODY.slice(i % 5, 50 + (i % 5)), 60, 370 + i * 12, 10, font);
      put(page, BODY.slice(10 + (i % 5), 60 + (i % 5)), 322, 370 + i * 12, 10, font);
    }
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual([
      "Spreadsheets, whose sheets become tables with a header row and body rows as the sheet holds.",
      "Office files, converted first.",
    ]);
    expect(elements.filter((e) => e.type === "FigureCaption").map((e) => e.text)).toEqual([
      "Figure 3: Recall at ten of the four embedding models, with and without the two Effects of re-ranking on the " +
        "held-out queries of the test set are shown on the right side. Both axes are logarithmic.",
    ]);
    expect(elements.some((e) => e.text === "Both axes are logarithmic.")).toBe(false);
  });
});

/** A page opening with a sentence, then a listing in Courier from 84 pt down, its indentation 6 pt a space. */
const listingPage = async (intro: string, lines: string[]) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const mono = await doc.embedFont(StandardFonts.Courier);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  put(page, intro, 60, 60, 10, font);
  lines.forEach((l, i) => l && put(page, l.trim(), 72 + (l.length - l.trimStart().length) * 6, 84 + i * 12, 10, mono));
  return { doc, font, mono, page };
};

describe("code listings", () => {
  it("reads a fixed-pitch listing as one CodeSnippet with its indentation, through a blank line", async () => {
    const sql = [
      "SELECT s.id, s.name, b.status",
      "FROM sources s",
      "  JOIN builds b ON b.source_id = s.id",
      "",
      "ORDER BY b.created_at DESC;",
    ];
    const { doc, font, mono, page } = await listingPage(
      "The query lists the sources of a project with their latest build, newest first.",
      sql,
    );
    put(page, "It runs in under a millisecond for a project of ten thousand sources and more.", 60, 170, 10, font);
    const py = [
      "def chunk(text, size):",
      "    out = []",
      "    for i in range(0, len(text), size):",
      "        out.append(text[i:i + size])",
      "    return out",
    ];
    py.forEach((l, i) => put(page, l.trim(), 72 + (l.length - l.trimStart().length) * 6, 200 + i * 12, 10, mono));
    put(
      page,
      "The function is what the character splitter does, without the overlap between chunks.",
      60,
      270,
      10,
      font,
    );
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.map((e) => e.type)).toEqual([
      "NarrativeText",
      "CodeSnippet",
      "NarrativeText",
      "CodeSnippet",
      "NarrativeText",
    ]);
    const code = elements.filter((e) => e.type === "CodeSnippet").map((e) => e.text);
    expect(code).toEqual([sql.filter(Boolean).join("\n"), py.join("\n")]);
  });

  it("keeps a sentence ending in a colon before a listing a paragraph when listings hold most of the text", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const mono = await doc.embedFont(StandardFonts.Courier);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Testing locally", 60, 60, 13, bold);
    put(page, "Events can be replayed against a server on your own machine before it is deployed.", 60, 84, 10, font);
    const intro = "The command-line tool can forward events to a local server:";
    put(page, intro, 60, 108, 10, font);
    const log = Array.from({ length: 7 }, (_, i) => [
      `app.post("/hooks/acme/${i}", express.raw({ type: "application/json" }), (req, res) => {`,
      `  handleDelivery(req.body, req.headers["acme-signature"], process.env.SECRET_${i});`,
    ]).flat();
    log.forEach((l, i) => put(page, l, 72, 130 + i * 11, 8.5, mono));
    put(
      page,
      "Each line shows the event's type and identifier and the status your server answered.",
      60,
      300,
      10,
      font,
    );
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.find((e) => e.text === intro)?.type).toBe("NarrativeText");
    expect(elements.find((e) => e.text === "Testing locally")?.type).toBe("Title");
    expect(elements.filter((e) => e.type === "CodeSnippet")).toHaveLength(1);
  });

  it("keeps a listing's line after a blank line under a line of closing brackets in the listing", async () => {
    const js = [
      "const endpoint = await client.webhooks.create({",
      '  url: "https://example.com/hooks/acme",',
      "});",
      "",
      "console.log(endpoint.secret);",
    ];
    const { doc, font, page } = await listingPage(
      "Register an endpoint with the create call; the response includes a signing secret.",
      js,
    );
    put(
      page,
      "Store the secret: it is shown only once, and it signs every delivery to the endpoint.",
      60,
      160,
      10,
      font,
    );
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.map((e) => e.type)).toEqual(["NarrativeText", "CodeSnippet", "NarrativeText"]);
    expect(elements[1]?.text).toBe(js.filter(Boolean).join("\n"));
  });
});

describe("folios and running heads seen on one page", () => {
  it("types a bare folio above the foot band as PageNumber and a head ending with its page's number as Header", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    // A LaTeX paper: page 1 has its folio at 86 % of the height and no running head; page 2 a head from there on.
    const first = doc.addPage([PAGE.width, PAGE.height]);
    body(first, font, 120, 1);
    put(first, "1", 300, 0.86 * PAGE.height, 10, font);
    const second = doc.addPage([PAGE.width, PAGE.height]);
    put(second, "3 RESULTS 2", 72, 60, 10, font);
    body(second, font, 120, 2);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.find((e) => e.text === "1")?.type).toBe("PageNumber");
    expect(elements.find((e) => e.text === "3 RESULTS 2")?.type).toBe("Header");
    expect(elements.filter((e) => e.type === "NarrativeText")).toHaveLength(2);
  });

  it("leaves a line in the margin that ends with another number, or starts with the page's, as it was", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([PAGE.width, PAGE.height]);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "2 Methods", 72, 60, 10, font);
    body(page, font, 120, 2);
    put(page, "Results of year 2027", 72, 0.86 * PAGE.height, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (text: string) => elements.find((e) => e.text === text)?.type;
    // A contents list at the top of page 1: its first entry ends with page 1, under the list's heading.
    const contents = await PDFDocument.create();
    const first = contents.addPage([PAGE.width, PAGE.height]);
    put(first, "Contents", 72, 50, 14, await contents.embedFont(StandardFonts.HelveticaBold));
    const regular = await contents.embedFont(StandardFonts.Helvetica);
    put(first, "1 Introduction 1", 72, 80, 10, regular);
    body(first, regular, 120, 1);
    const entry = (await partitionPdf({ bytes: await contents.save() })).elements.find(
      (e) => e.text === "1 Introduction 1",
    );
    expect(["Header", "Footer", "PageNumber"]).not.toContain(entry?.type);
    expect(["Header", "Footer", "PageNumber"]).not.toContain(typeOf("2 Methods"));
    expect(["Header", "Footer", "PageNumber"]).not.toContain(typeOf("Results of year 2027"));
  });
});

describe("numbered headings", () => {
  it("types a lettered line in a heading font and capitals as Title, and bold numbered items in sentence case as ListItem", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "A. SLEEP ENVIRONMENT", 72, 80, 11, bold);
    body(page, font, 110, 1);
    put(page, "B. SLEEP SCHEDULE", 72, 200, 11, bold);
    body(page, font, 230, 2);
    put(page, "1. Install the package", 72, 320, 11, bold);
    put(page, "2. Configure the server", 72, 340, 11, bold);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (text: string) => elements.find((e) => e.text === text)?.type;
    expect(typeOf("A. SLEEP ENVIRONMENT")).toBe("Title");
    expect(typeOf("B. SLEEP SCHEDULE")).toBe("Title");
    expect(typeOf("1. Install the package")).toBe("ListItem");
    expect(typeOf("2. Configure the server")).toBe("ListItem");
  });

  it("types a numbered title wrapped in the middle of the page as Title, a wrapped item at the left as ListItem", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const centre = (text: string, top: number) =>
      put(page, text, (PAGE.width - font.widthOfTextAtSize(text, 14)) / 2, top, 14, font);
    centre("159. And It Came to Pass in the Course of Those Many", 80);
    centre("Days", 98);
    body(page, font, 130, 1);
    put(page, "12. And it came to pass in the course of those many days that the", 72, 210, 14, font);
    put(page, "king of Egypt died", 72, 228, 14, font);
    body(page, font, 260, 2);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (start: string) => elements.find((e) => e.text.startsWith(start))?.type;
    expect(typeOf("159. And It Came")).toBe("Title");
    expect(typeOf("12. And it came")).toBe("ListItem");
  });

  it("ends a run of two-column rows at a section heading set larger, and does not start one there", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const rows = (top: number, names: string[]) =>
      names.forEach((name, i) => {
        put(page, name, 72, top + i * 14, 10, font);
        put(page, String(i + 1), 400, top + i * 14, 10, font);
      });
    rows(80, ["Introduction", "Methods", "Results"]);
    // The section heading: its number set apart from its words, like LaTeX's, 14 pt bold.
    put(page, "2", 72, 140, 14, bold);
    put(page, "Document structures", 100, 140, 14, bold);
    rows(170, ["Alpha", "Beta", "Gamma"]);
    body(page, font, 240, 1);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.find((e) => e.text === "2 Document structures")?.type).toBe("Title");
    expect(elements.filter((e) => e.type === "Table" && e.text.includes("Document structures"))).toHaveLength(0);
  });
});
