import {
  beginText,
  endText,
  moveText,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFontAndSize,
  showText,
  StandardFonts,
} from "pdf-lib";
import { describe, expect, it } from "vitest";
import { bulletPrefixLength } from "../classify-text";
import { partitionPdf } from ".";
import { BODY, PAGE, pageWithProse, put } from "./test-fixtures";

/** List items of the text layer on small PDFs made here: bullets of symbol fonts, markers, wrapped items. */

const listItems = async (doc: PDFDocument) =>
  (await partitionPdf({ bytes: await doc.save() })).elements.filter((e) => e.type === "ListItem").map((e) => e.text);

/**
 * A page of prose whose foot is an item (its marker, then its lines at the text indent) and a second page to go on,
 * both with their page numbers.
 */
const itemAtPageFoot = async (marker: string, lines: string[]) => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([PAGE.width, PAGE.height]);
  for (let i = 0; i < 39; i++) put(first, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
  put(first, marker, 72, 666, 10, font);
  lines.forEach((line, i) => put(first, line, 90, 666 + i * 14, 10, font));
  put(first, "1", 300, 750, 9, font);
  const second = doc.addPage([PAGE.width, PAGE.height]);
  put(second, "2", 300, 750, 9, font);
  return { doc, font, second };
};

/** A description list's terms and meanings, as a library's membership page gives them. */
const MEMBERSHIPS = [
  ["Adult", "Borrow up to 15 items at a time, and use the computers for two hours a day."],
  ["Junior (under 16)", "Borrow up to 10 items, with no overdue charges on children's books."],
  ["Temporary", "For visitors staying less than three months, with a refundable deposit."],
];

/** The membership terms in bold under prose, each meaning `indent` right of its term, a pair every `pitch` pt. */
const membershipTerms = async (pitch: number, indent: number) => {
  const { doc, font, page } = await pageWithProse();
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  MEMBERSHIPS.forEach(([term = "", meaning = ""], i) => {
    put(page, term, 72, 170 + i * pitch, 10, bold);
    put(page, meaning, 72 + indent, 184 + i * pitch, 10, font);
  });
  return { doc, font, page, bold };
};

describe("list items", () => {
  it("starts an item at each bullet drawn from a dingbat font: boxes, diamonds, arrows, crosses", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const dingbats = await doc.embedFont(StandardFonts.ZapfDingbats);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    const items = ["Check the tags", "Check the reading order", "Add alternative texts", "Embed all fonts"];
    ["❑", "◆", "➔", "✗"].forEach((bullet, i) => {
      put(page, bullet, 72, 170 + i * 14, 10, dingbats);
      put(page, items[i] ?? "", 86, 170 + i * 14, 10, font);
    });
    expect(await listItems(doc)).toEqual(items);
  });

  it("starts an item at each bullet drawn as a filled dot or square, as a browser prints a list", async () => {
    const { doc, font, page } = await pageWithProse();
    // A dot at the height of the letters, left of the item's first word (pdf-lib draws from the bottom-left).
    const dot = (top: number) => page.drawCircle({ x: 78, y: PAGE.height - top - 6.5, size: 1.8 });
    const square = (top: number) =>
      page.drawRectangle({ x: 76.5, y: PAGE.height - top - 8.2, width: 3.4, height: 3.4 });
    dot(170);
    put(page, "Check the tags", 86, 170, 10, font);
    dot(184);
    put(page, "Check the reading order of every page, from the first", 86, 184, 10, font);
    put(page, "heading to the last footnote", 86, 198, 10, font);
    square(212);
    put(page, "Embed all fonts", 86, 212, 10, font);
    // A dot between two words is a separator, not a bullet.
    put(page, "Home", 72, 260, 10, font);
    page.drawCircle({ x: 103, y: PAGE.height - 260 - 6.5, size: 1.8 });
    put(page, "News and more of the site's pages", 110, 260, 10, font);
    // A chart's legend, its keys side by side, and a plot's point beside an axis label.
    square(300);
    put(page, "Households in towns", 86, 300, 10, font);
    page.drawRectangle({ x: 226.5, y: PAGE.height - 308.2, width: 3.4, height: 3.4 });
    put(page, "Households in the country", 236, 300, 10, font);
    dot(340);
    put(page, "C/0", 86, 340, 10, font);
    expect(await listItems(doc)).toEqual([
      "Check the tags",
      "Check the reading order of every page, from the first heading to the last footnote",
      "Embed all fonts",
    ]);
  });

  it("takes a small ring drawn in outline as a nested item's bullet, and not a box in outline (a form's checkbox)", async () => {
    const { doc, font, page } = await pageWithProse();
    const ring = (top: number) =>
      page.drawCircle({ x: 96, y: PAGE.height - top - 6.5, size: 1.8, borderWidth: 0.6, borderColor: rgb(0, 0, 0) });
    ring(170);
    put(page, "Nested item about the storage folder", 104, 170, 10, font);
    ring(184);
    put(page, "Nested item about the database", 104, 184, 10, font);
    page.drawRectangle({
      x: 72,
      y: PAGE.height - 240 - 9,
      width: 7,
      height: 7,
      borderWidth: 0.6,
      borderColor: rgb(0, 0, 0),
    });
    put(page, "Yes, I agree to the terms of the service", 84, 240, 10, font);
    expect(await listItems(doc)).toEqual(["Nested item about the storage folder", "Nested item about the database"]);
  });

  it('takes Word\'s nested bullet, an "o" in a font of its own a tab before the words, as a bullet, not the word', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const courier = await doc.embedFont(StandardFonts.Courier);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    put(page, "o", 90, 170, 10, courier);
    put(page, "Nested item about the storage folder", 108, 170, 10, font);
    put(page, "o", 90, 184, 10, courier);
    put(page, "Nested item about the database", 108, 184, 10, font);
    put(page, "Ele viu", 72, 240, 10, font);
    put(page, "o", 107, 240, 10, font);
    put(page, "carro azul na rua da cidade velha.", 116, 240, 10, font);
    expect(await listItems(doc)).toEqual(["Nested item about the storage folder", "Nested item about the database"]);
  });

  it('takes a column of "o"s in the words\' own font, each a wide gap before its words, as bullets, not the article', async () => {
    const { doc, font, page } = await pageWithProse();
    const items = ["Install the service", "Configure the database", "Start the worker"];
    items.forEach((text, i) => {
      put(page, "o", 90, 170 + i * 14, 10, font);
      put(page, text, 104, 170 + i * 14, 10, font);
    });
    put(page, "o carro azul na rua da cidade velha e o livro na mesa da sala de estar da casa.", 72, 240, 10, font);
    put(page, "o livro na mesa da sala de estar da casa e o carro azul na rua da cidade velha.", 72, 254, 10, font);
    expect(await listItems(doc)).toEqual(items);
  });

  it('takes a lone letter in Wingdings (its round bullet read as "l") as a bullet, and the font\'s name only there', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    // A font named as Word's Wingdings, with no map to the pictures' own characters: its codes read as letters.
    const wingdings = await doc.embedFont(StandardFonts.TimesRoman);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    put(page, "l", 72, 170, 10, wingdings);
    put(page, "Check the tags", 90, 170, 10, font);
    put(page, "§", 72, 184, 10, wingdings);
    put(page, "Embed all fonts", 90, 184, 10, font);
    put(page, "l", 72, 240, 10, font);
    put(page, "is the length of the page in points, and w its width.", 90, 240, 10, font);
    await doc.flush();
    doc.context.lookup(wingdings.ref, PDFDict).set(PDFName.of("BaseFont"), PDFName.of("Wingdings-Regular"));
    expect(await listItems(doc)).toEqual(["Check the tags", "Embed all fonts"]);
  });

  it("takes a lone glyph its font maps to no character (LaTeX's bitmap bullet, code 0x88) as a bullet", async () => {
    const { doc, font, page } = await pageWithProse();
    // A Type 3 font as pdfTeX writes one for a bitmap font: a glyph named by its code, no Unicode map, so the code
    // itself (U+0088, a control character) is all a reader gets.
    const glyph = doc.context.stream("500 0 0 0 400 400 d1 100 100 300 300 re f");
    const type3 = doc.context.obj({
      Type: "Font",
      Subtype: "Type3",
      FontBBox: [0, 0, 500, 500],
      FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
      CharProcs: { a136: doc.context.register(glyph) },
      Encoding: { Type: "Encoding", Differences: [136, PDFName.of("a136")] },
      FirstChar: 136,
      LastChar: 136,
      Widths: [500],
      Resources: {},
    });
    const key = page.node.newFontDictionary("T3", doc.context.register(type3));
    for (const [top, words] of [
      [170, "Check the tags of every page"],
      [184, "Embed all fonts before the upload"],
    ] as const) {
      page.pushOperators(
        pushGraphicsState(),
        beginText(),
        setFontAndSize(key, 10),
        moveText(80, PAGE.height - top - 10),
        showText(PDFHexString.of("88")),
        endText(),
        popGraphicsState(),
      );
      put(page, words, 92, top, 10, font);
    }
    expect(await listItems(doc)).toEqual(["Check the tags of every page", "Embed all fonts before the upload"]);
  });

  it("takes paragraphs led by a bold term whose wrapped lines hang under the meaning as a description list", async () => {
    const { doc, font, page } = await pageWithProse();
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const term = (word: string, meaning: string, top: number) => {
      put(page, word, 72, top, 10, bold);
      put(page, meaning, 72 + bold.widthOfTextAtSize(`${word} `, 10), top, 10, font);
    };
    // LaTeX's description: the term at the margin, the meaning after it, its wrapped lines indented under it, a few
    // points of space between the items.
    term("Chunk", "a piece of a document stored with its embedding.", 170);
    term("Build", "one run of the pipeline over a source.", 188);
    term("Furniture", "running heads, running feet and page numbers repeated on each page of", 206);
    put(page, "the document, left out of the index.", 92, 220, 10, font);
    // Paragraphs led by a bold phrase, their wrapped lines back at the margin: prose.
    term("Storage", "keeps the uploads in a folder of their own, one file per upload, named by its", 250);
    put(page, "hash, and the database keeps the rows that point to them.", 72, 264, 10, font);
    term("Retrieval", "ranks the chunks of a project by both their words and their embeddings, and", 284);
    put(page, "gives the best ten of them with their pages.", 72, 298, 10, font);
    expect(await listItems(doc)).toEqual([
      "Chunk a piece of a document stored with its embedding.",
      "Build one run of the pipeline over a source.",
      "Furniture running heads, running feet and page numbers repeated on each page of the document, left out of the index.",
    ]);
  });

  it("joins bold terms on lines of their own to the meanings indented under them, and leaves a lone one out of the list", async () => {
    // HTML's <dl>: each <dt> in bold on its line, a little space above it, its <dd> indented under it; then a
    // paragraph, and a heading over an indented quotation, once: no list.
    const { doc, font, page, bold } = await membershipTerms(36, 20);
    put(page, `${BODY.slice(0, 88)}.`, 72, 290, 10, font);
    put(page, "Opening hours", 72, 320, 10, bold);
    put(page, "Every branch opens at nine on weekdays and at ten on Saturdays.", 92, 334, 10, font);
    expect(await listItems(doc)).toEqual(MEMBERSHIPS.map(([term, meaning]) => `${term} ${meaning}`));
  });

  it("splits a description list set at the text's pitch before a term that ends with an aside in brackets", async () => {
    // HTML's <dl> as a browser sets it by default: no space between the pairs, each <dd> indented 40 px.
    const { doc } = await membershipTerms(28, 40);
    expect(await listItems(doc)).toEqual(MEMBERSHIPS.map(([term, meaning]) => `${term} ${meaning}`));
  });

  it("takes a description list set without space under a paragraph as items, its first term on the paragraph's pitch", async () => {
    const { doc, font, page } = await pageWithProse();
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const term = (word: string, meaning: string, top: number) => {
      put(page, word, 72, top, 10, bold);
      put(page, meaning, 72 + bold.widthOfTextAtSize(`${word} `, 10), top, 10, font);
    };
    // enumitem's nosep: the items follow the paragraph's last line at the text's own pitch.
    term("Source", "a folder, a site or a repository the service reads.", 156);
    term("Flow", "the steps that turn a source into an index, configured per project and run", 170);
    put(page, "on every new upload of the source.", 92, 184, 10, font);
    term("Token", "a secret that lets a program call the public interface.", 198);
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 230 + i * 14, 10, font);
    expect(await listItems(doc)).toEqual([
      "Source a folder, a site or a repository the service reads.",
      "Flow the steps that turn a source into an index, configured per project and run on every new upload of the source.",
      "Token a secret that lets a program call the public interface.",
    ]);
  });

  it("goes on with an item broken by a page break, where the next page opens in lower case", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const first = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 40; i++) put(first, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    put(first, "1.", 72, 680, 10, font);
    put(first, "Install the service on a host with two cores", 90, 680, 10, font);
    put(first, "2.", 72, 694, 10, font);
    put(first, "Configure the database connection and the storage", 90, 694, 10, font);
    put(first, "1", 300, 750, 9, font);
    const second = doc.addPage([PAGE.width, PAGE.height]);
    put(second, "folder for uploads before the first start", 90, 72, 10, font);
    put(second, "3.", 72, 86, 10, font);
    put(second, "Start the worker", 90, 86, 10, font);
    for (let i = 0; i < 4; i++) put(second, `${BODY.slice(0, 88)} ${i}.`, 72, 120 + i * 14, 10, font);
    put(second, "2", 300, 750, 9, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const items = elements.filter((e) => e.type === "ListItem");
    expect(items.map((e) => e.text)).toEqual([
      "1. Install the service on a host with two cores",
      "2. Configure the database connection and the storage folder for uploads before the first start",
      "3. Start the worker",
    ]);
    expect(items[1]?.metadata?.page_numbers).toEqual([1, 2]);
  });

  it("goes on with an item broken by a page break whose rest opens in upper case at the item's text indent", async () => {
    const { doc, font, second } = await itemAtPageFoot("1.", [
      "Install the service on a host with two cores and memory enough",
      "for the workers, then configure the database connection with",
    ]);
    put(second, "PostgreSQL settings for the host and the storage folder for the", 90, 72, 10, font);
    put(second, "uploads, before the first start of the service on the new host", 90, 86, 10, font);
    put(second, "2.", 72, 100, 10, font);
    put(second, "Start the worker", 90, 100, 10, font);
    for (let i = 0; i < 4; i++) put(second, `${BODY.slice(0, 88)} ${i}.`, 72, 130 + i * 14, 10, font);
    expect(await listItems(doc)).toEqual([
      "1. Install the service on a host with two cores and memory enough for the workers, then configure the " +
        "database connection with PostgreSQL settings for the host and the storage folder for the uploads, before " +
        "the first start of the service on the new host",
      "2. Start the worker",
    ]);
  });

  it("leaves a paragraph in upper case at the column's edge after an unfinished item on the page before", async () => {
    const { doc, font, second } = await itemAtPageFoot("•", [
      "Install the service on a host with two cores and memory enough",
      "for the workers and the database with its storage folder",
    ]);
    put(second, "PostgreSQL settings are read from the environment of the host when the", 72, 72, 10, font);
    put(second, "service starts, and a change needs a restart of the service to apply.", 72, 86, 10, font);
    for (let i = 0; i < 4; i++) put(second, `${BODY.slice(0, 88)} ${i}.`, 72, 116 + i * 14, 10, font);
    expect(await listItems(doc)).toEqual([
      "Install the service on a host with two cores and memory enough for the workers and the database with its " +
        "storage folder",
    ]);
  });

  it("goes on with an item under its text after a first line that ends a sentence", async () => {
    const { doc, font, page } = await pageWithProse();
    put(page, "•", 72, 170, 10, font);
    put(page, "Install the service on a host with two cores and memory enough for it.", 84, 170, 10, font);
    put(page, "Then restart the host so that the settings of the service apply to it.", 84, 184, 10, font);
    put(page, "•", 72, 198, 10, font);
    put(page, "Start the worker.", 84, 198, 10, font);
    // A paragraph right after the list, its first line indented as far as the items' text: its next line goes back
    // to the left edge.
    put(page, "Quarry then parses the first upload and indexes its chunks for retrieval.", 84, 212, 10, font);
    put(page, `${BODY.slice(0, 88)}.`, 72, 226, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual([
      "Install the service on a host with two cores and memory enough for it. Then restart the host so that the " +
        "settings of the service apply to it.",
      "Start the worker.",
    ]);
    expect(elements.find((e) => e.text.startsWith("Quarry then parses"))?.type).toBe("NarrativeText");
  });

  it("takes a symbol font's private-use bullet, a spot, a ring or a star as a marker, and not a triangle marking a change", () => {
    expect(bulletPrefixLength("\uF0B7 Embed all fonts")).toBe(2);
    expect(bulletPrefixLength("\uF0A7 Embed all fonts")).toBe(2);
    expect(bulletPrefixLength("▲ 2.3% over the year")).toBe(0);
    for (const spot of ["⦁", "⬤", "◉", "⚫", "◊", "✦"]) expect(bulletPrefixLength(`${spot} Embed all fonts`)).toBe(2);
  });

  it("starts an item at a round bullet set against the item's first word, and not at a dash against a figure", async () => {
    const { doc, font, page } = await pageWithProse();
    const items = ["Install the service", "Configure the database", "Start the worker"];
    items.forEach((text, i) => {
      put(page, "•", 72, 170 + i * 14, 10, font);
      put(page, text, 76, 170 + i * 14, 10, font);
    });
    expect(await listItems(doc)).toEqual(items);
    expect(bulletPrefixLength("-5 degrees at night")).toBe(0);
    expect(bulletPrefixLength("*Note the date")).toBe(0);
  });

  it("starts an item at each bullet of items set side by side in two columns", async () => {
    const { doc, font, page } = await pageWithProse();
    const rows = [
      ["Fast parsing of scans", "Tables with spans"],
      ["Reading order", "Headings and lists"],
      ["Page furniture", ""],
    ];
    rows.forEach(([left, right], i) => {
      put(page, "•", 72, 170 + i * 14, 10, font);
      put(page, left ?? "", 84, 170 + i * 14, 10, font);
      if (!right) return;
      put(page, "•", 300, 170 + i * 14, 10, font);
      put(page, right, 312, 170 + i * 14, 10, font);
    });
    expect(await listItems(doc)).toEqual([
      "Fast parsing of scans",
      "Tables with spans",
      "Reading order",
      "Headings and lists",
      "Page furniture",
    ]);
  });

  it("goes on with an item on a wrapped line that opens an aside in parentheses", async () => {
    const { doc, font, page } = await pageWithProse();
    put(page, "1.", 72, 170, 10, font);
    put(page, "Convert a PDF into an accessible PDF", 90, 170, 10, font);
    put(page, "2.", 72, 184, 10, font);
    put(page, "Create an accessible PDF from an authoring program", 90, 184, 10, font);
    put(page, "(e. g. a word processor or a layout program)", 90, 198, 10, font);
    put(page, "3.", 72, 212, 10, font);
    put(page, "From the idea to the accessible document", 90, 212, 10, font);
    expect(await listItems(doc)).toEqual([
      "1. Convert a PDF into an accessible PDF",
      "2. Create an accessible PDF from an authoring program (e. g. a word processor or a layout program)",
      "3. From the idea to the accessible document",
    ]);
  });

  it("types an agenda numbered 1., 2., 3. in a heading's size as list items, numbered sections apart as headings", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const slide = doc.addPage([PAGE.width, PAGE.height]);
    put(slide, "Topics", 72, 80, 24, bold);
    const agenda = ["1. Short intro on tagged PDF", "2. Advantages of tagged PDF", "3. Future of tagged PDF"];
    agenda.forEach((text, i) => put(slide, text, 72, 140 + i * 30, 16, font));
    put(slide, "A presentation of the PDF Association, with notes for the speaker.", 72, 300, 11, font);
    const paper = doc.addPage([PAGE.width, PAGE.height]);
    const sections = ["1. Introduction", "2. Methods", "3. Results"];
    sections.forEach((text, i) => {
      put(paper, text, 72, 80 + i * 110, 16, bold);
      for (let j = 0; j < 4; j++) put(paper, `${BODY.slice(0, 88)} ${i}.${j}`, 72, 110 + i * 110 + j * 14, 11, font);
    });
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (text: string) => elements.find((e) => e.text === text)?.type;
    expect(agenda.map(typeOf)).toEqual(["ListItem", "ListItem", "ListItem"]);
    expect(sections.map(typeOf)).toEqual(["Title", "Title", "Title"]);
  });

  it("types a list numbered at several levels as items, and sections so numbered, their text between, as headings", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    const items = [
      "1.1 Install the service",
      "1.2 Configure the database",
      "1.2.1 Set the host",
      "1.3 Start the worker",
    ];
    items.forEach((text, i) => put(page, text, 72, 156 + i * 14, 10, font));
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 226 + i * 14, 10, font);
    // A sentence opening with a decimal number on a new line goes on in its paragraph.
    put(page, "3.5 million uploads were parsed in the first year of the service.", 72, 268, 10, font);
    const sections = ["2.1 Data", "2.2 Methods", "2.3 Results"];
    sections.forEach((text, i) => {
      put(page, text, 72, 310 + i * 90, 11, bold);
      for (let j = 0; j < 4; j++) put(page, `${BODY.slice(0, 88)} ${i}.${j}`, 72, 330 + i * 90 + j * 14, 10, font);
    });
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (text: string) => elements.find((e) => e.text === text)?.type;
    expect(items.map(typeOf)).toEqual(["ListItem", "ListItem", "ListItem", "ListItem"]);
    expect(sections.map(typeOf)).toEqual(["Title", "Title", "Title"]);
    expect(elements.find((e) => e.text.includes("3.5 million"))?.text.startsWith("Quarry")).toBe(true);
  });

  it("reads an outline list's nested items, numbers a tab from their words or letters set tight, as items", async () => {
    // LibreOffice's multi-level list: "3.1." a tab from its words under "3. A third", then "a)And another!" set tight.
    const { doc, font, page } = await pageWithProse();
    const line = (marker: string, text: string, left: number, top: number) => {
      put(page, marker, left, top, 10, font);
      put(page, text, left + 28, top, 10, font);
    };
    ["1. A list item", "2. A second", "3. A third"].forEach((t, i) =>
      line(t.slice(0, 2), t.slice(3), 72, 170 + i * 14),
    );
    line("3.1.", "New level!", 90, 212);
    put(page, "a)And another!", 126, 226, 10, font);
    put(page, "b)It's great up here!", 126, 240, 10, font);
    line("3.2.", "Oh noes", 90, 254);
    line("3.3.", "We fell!", 90, 268);
    line("4.", "Maybe someone", 72, 282);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual([
      "1. A list item",
      "2. A second",
      "3. A third",
      "3.1. New level!",
      "a) And another!",
      "b) It's great up here!",
      "3.2. Oh noes",
      "3.3. We fell!",
      "4. Maybe someone",
    ]);
  });

  it("reads clauses numbered at several levels that open with a quoted term as items, not one paragraph", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    const clauses = [
      '1.1 "Customer" means the person or business that books a delivery through the Service.',
      '1.2 "Courier" means the independent carrier that collects and delivers a parcel.',
      '1.3 "Prohibited Items" means the goods listed in clause 4 of these terms.',
    ];
    clauses.forEach((text, i) => put(page, text, 72, 170 + i * 14, 10, font));
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(clauses.map((text) => elements.find((e) => e.text === text)?.type)).toEqual([
      "ListItem",
      "ListItem",
      "ListItem",
    ]);
  });

  it("reads two clauses numbered under their section's numbered heading as items", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    put(page, "3. Prices and payment", 72, 176, 12, bold);
    const clauses = [
      "3.1 Prices are shown including VAT at the time of booking. Payment is taken when it is confirmed.",
      "3.2 If you cancel a booking before the parcel is collected, we refund the price in full.",
    ];
    clauses.forEach((text, i) => put(page, text, 72, 200 + i * 20, 10, font));
    put(page, "4. Liability", 72, 250, 12, bold);
    for (let i = 0; i < 2; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 274 + i * 14, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(clauses.map((text) => elements.find((e) => e.text === text)?.type)).toEqual(["ListItem", "ListItem"]);
    expect(elements.find((e) => e.text === "4. Liability")?.type).toBe("Title");
  });

  it("keeps a caption marked with a glyph a caption, and a name's initials out of lettered items", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const dingbats = await doc.embedFont(StandardFonts.ZapfDingbats);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10, font);
    put(page, "■", 72, 200, 9, dingbats);
    put(page, "Figure 5.1 Gain in height per year by males and females.", 84, 200, 9, font);
    for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${i + 4}.`, 72, 260 + i * 14, 10, font);
    put(page, "R. H. Whitehouse and A. Takaishi, 1966, pp. 454-471.", 72, 340, 9, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const caption = elements.find((e) => e.text.includes("Gain in height"));
    expect(caption).toMatchObject({
      type: "FigureCaption",
      text: "Figure 5.1 Gain in height per year by males and females.",
    });
    expect(elements.find((e) => e.text.includes("Whitehouse"))?.type).not.toBe("ListItem");
  });
});

describe("term lists", () => {
  const nomenclature = [
    ["k", "Thermal conductivity [W/m K]"],
    ["q", "Heat flux vector [W/m2]"],
    ["Pr", "Prandtl number, nu/alpha"],
    ["Sc", "Schmidt number"],
    ["b", "bulk value"],
  ];

  it("types a nomenclature, a term and its meaning per row under group headings, the first one too, as list items", async () => {
    const { doc, font, page } = await pageWithProse();
    const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
    let top = 170;
    nomenclature.forEach(([term, meaning], i) => {
      if (i === 0 || i === 2) {
        put(page, i === 0 ? "Roman letters" : "Dimensionless groups", 72, top, 10, italic);
        top += 14;
      }
      put(page, term ?? "", 84, top, 10, italic);
      put(page, meaning ?? "", 120, top, 10, font);
      top += 14;
    });
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, top + 20 + i * 14, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual([
      "Roman letters",
      "k Thermal conductivity [W/m K]",
      "q Heat flux vector [W/m2]",
      "Dimensionless groups",
      "Pr Prandtl number, nu/alpha",
      "Sc Schmidt number",
      "b bulk value",
    ]);
    expect(elements.some((e) => e.type === "Table")).toBe(false);
  });

  it("keeps a table of two columns under a bold header row, or of single words, a table", async () => {
    const { doc, font, page } = await pageWithProse();
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    put(page, "Symbol", 84, 170, 10, bold);
    put(page, "Quantity and unit", 130, 170, 10, bold);
    nomenclature.forEach(([term, meaning], i) => {
      put(page, term ?? "", 84, 184 + i * 14, 10, font);
      put(page, meaning ?? "", 130, 184 + i * 14, 10, font);
    });
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 280 + i * 14, 10, font);
    ["France", "Spain", "Italy", "Greece"].forEach((country, i) => {
      put(page, country, 84, 340 + i * 14, 10, font);
      put(page, ["Paris", "Madrid", "Rome", "Athens"][i] ?? "", 160, 340 + i * 14, 10, font);
    });
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i}.`, 72, 420 + i * 14, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.filter((e) => e.type === "ListItem")).toEqual([]);
    expect(elements.filter((e) => e.type === "Table").map((e) => e.text.split("\n")[0])).toEqual([
      "Symbol Quantity and unit",
      "France Paris",
    ]);
  });
});
