import { PDFDict, PDFDocument, PDFName, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { PAGE, put } from "./test-fixtures";
import { bodyLines, typesOf } from "./test-headings";

/**
 * Headings of papers on small PDFs made here: set smaller than the body in bold, numbered in the body's font, run
 * into their paragraph, and over an italic abstract.
 */

const fonts = async (doc: PDFDocument) => ({
  regular: await doc.embedFont(StandardFonts.Helvetica),
  bold: await doc.embedFont(StandardFonts.HelveticaBold),
  italic: await doc.embedFont(StandardFonts.HelveticaOblique),
});

describe("headings of papers", () => {
  it("types bold section headings set a little smaller or larger than the body as Title, not other bold lines", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "1. INTRODUCTION", 72, 80, 9, bold);
    bodyLines(page, regular, 92, 1);
    put(page, "1.1. Essential Initial Commands", 72, 160, 9, bold);
    bodyLines(page, regular, 172, 2);
    put(page, "Proceedings of the annual meeting", 72, 240, 9, bold);
    bodyLines(page, regular, 252, 3);
    // A ruled-free table set smaller than the body, its last row a bold total.
    ["North", "South", "East"].forEach((name, i) => {
      put(page, name, 72, 420 + i * 11, 8, regular);
      put(page, String(100 + i), 300, 420 + i * 11, 8, regular);
    });
    put(page, "TOTAL", 72, 453, 8, bold);
    put(page, "303", 300, 453, 8, bold);
    // A paper's numbered section heading set a point larger than the body, in sentence case.
    put(page, "2. Related Work", 72, 320, 11, bold);
    bodyLines(page, regular, 336, 4);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("1. INTRODUCTION")).toBe("Title");
    expect(typeOf("1.1. Essential Initial Commands")).toBe("Title");
    expect(typeOf("Proceedings of the annual meeting")).toBeUndefined();
    expect(typeOf("2. Related Work")).toBe("Title");
    expect(elements.find((e) => e.type === "Table")?.text).toContain("TOTAL");
  });

  it("keeps a heading apart from an italic paragraph under it and from a heading in another font", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold, italic } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "ABSTRACT", 72, 80, 9, bold);
    // An italic abstract whose first line ends in a word broken across lines, at the body's pitch.
    put(page, "This paper is an example of and a template for type-", 72, 92, 10, italic);
    put(page, "setting conference papers using the class file here", 72, 104, 10, italic);
    put(page, "and references can include identifiers and links.", 72, 116, 10, italic);
    // An italic paragraph at the body's size whose line holds a sentence's end.
    put(page, "Irregular text is widely used. However, it is", 72, 128, 10, italic);
    put(page, "hard to read for the recognition models we have.", 72, 140, 10, italic);
    put(page, "The model consists of a rectification network and a", 72, 340, 10, italic);
    put(page, "recognition network that are trained end to end.", 72, 352, 10, italic);
    put(page, "NOMENCLATURE", 72, 160, 9, bold);
    put(page, "Roman letters", 72, 172, 10, italic);
    put(page, "k Thermal conductivity", 80, 184, 10, regular);
    bodyLines(page, regular, 200, 1);
    bodyLines(page, regular, 260, 2);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("ABSTRACT")).toBe("Title");
    expect(typeOf("NOMENCLATURE")).toBe("Title");
    const abstract = elements.find((e) => e.text.startsWith("This paper is an example"));
    expect(abstract?.type).not.toBe("Title");
    expect(abstract?.text).toContain("typesetting conference papers");
    const emphasised = elements.find((e) => e.text.startsWith("Irregular text"));
    expect(emphasised?.type).not.toBe("Title");
    const paragraph = elements.find((e) => e.text.startsWith("The model consists"));
    expect(paragraph?.type).not.toBe("Title");
    expect(paragraph?.text).toContain("trained end to end");
  });

  it("types a line numbered as a section and set apart as Title in the body's font, not a wrapped contents entry", async () => {
    const doc = await PDFDocument.create();
    const { regular } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    // A contents list whose fourth entry wraps: its first line sits at the list's pitch on both sides.
    const entries = [
      ["2.1 Method", "2"],
      ["2.2 Design", "2"],
      ["2.3 Data sets", "3"],
      ["2.4 Preliminary considerations and criteria for the making", ""],
      ["of accessible documents", "4"],
      ["2.5 Results", "5"],
      ["2.6 Discussion", "7"],
    ];
    entries.forEach(([entry = "", folio = ""], i) => {
      put(page, entry, entry.startsWith("of") ? 90 : 72, 80 + i * 12, 10, regular);
      if (folio) put(page, folio, 500, 80 + i * 12, 10, regular);
    });
    // An entry alone, with dot leaders to its page.
    put(page, "2.7 Conclusions . . . . . . . . . . . . . . 9", 72, 200, 10, regular);
    bodyLines(page, regular, 240, 1);
    put(page, "2.1 Method", 72, 320, 10, regular);
    bodyLines(page, regular, 340, 2);
    bodyLines(page, regular, 400, 3);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("2.1 Method")).toBe("Title");
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles.filter((t) => /Preliminary|Conclusions/.test(t))).toEqual([]);
  });

  it("splits a bold run-in heading ending in a full stop from its paragraph, not a bold caption label", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    bodyLines(page, regular, 80, 1);
    put(page, "Online Sources.", 72, 140, 10, bold);
    put(
      page,
      "A bibliography entry is included for citation of web pages",
      72 + bold.widthOfTextAtSize("Online Sources. ", 10),
      140,
      10,
      regular,
    );
    put(page, "and other sources that are found online, with the date they were read.", 72, 152, 10, regular);
    put(page, "Figure 2.", 72, 190, 10, bold);
    put(
      page,
      "Throughput of the parser per page count.",
      72 + bold.widthOfTextAtSize("Figure 2. ", 10),
      190,
      10,
      regular,
    );
    bodyLines(page, regular, 230, 2);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("Online Sources.")).toBe("Title");
    const paragraph = elements.find((e) => e.text.startsWith("A bibliography entry"));
    expect(paragraph?.type).toBe("NarrativeText");
    expect(elements.find((e) => e.text.startsWith("Figure 2."))?.type).toBe("FigureCaption");
  });

  it("splits LaTeX's run-in headings by TeX's font names: CMBX10 bold, a number in the body's font, small capitals", async () => {
    const doc = await PDFDocument.create();
    const { regular } = await fonts(doc);
    // Fonts named as pdfTeX embeds Computer Modern: their names do not say bold or small capitals.
    const cmbx = await doc.embedFont(StandardFonts.HelveticaBold);
    const cmcsc = await doc.embedFont(StandardFonts.HelveticaOblique);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const runIn = (lead: { text: string; font: typeof regular }[], rest: string, top: number) => {
      let x = 72;
      for (const { text, font } of lead) {
        put(page, text, x, top, 10, font);
        x += font.widthOfTextAtSize(`${text} `, 10);
      }
      put(page, rest, x, top, 10, regular);
      put(
        page,
        "and goes on over a second line of the paragraph in the body's own font here.",
        72,
        top + 12,
        10,
        regular,
      );
    };
    bodyLines(page, regular, 60, 1);
    runIn([{ text: "Abstract.", font: cmcsc }], "We read the structure of papers from their text layer alone,", 120);
    runIn(
      [{ text: "Heading F1.", font: cmbx }],
      "The share of headings found, weighed against those found wrongly,",
      170,
    );
    runIn(
      [
        { text: "2.1.", font: regular },
        { text: "Definitions.", font: cmbx },
      ],
      "A segment is a run of pages that share one subject and one voice,",
      220,
    );
    // A theorem's label, numbered, is no heading.
    runIn([{ text: "Theorem 1.", font: cmbx }], "Every segment ends at a page where the subject changes its", 270);
    bodyLines(page, regular, 320, 2);
    await doc.flush();
    for (const [font, name] of [
      [cmbx, "KSNVOZ+CMBX10"],
      [cmcsc, "MGRVGL+CMCSC10"],
    ] as const) {
      doc.context.lookup(font.ref, PDFDict).set(PDFName.of("BaseFont"), PDFName.of(name));
    }
    const { elements } = await typesOf(doc);
    expect(elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual([
      "Abstract.",
      "Heading F1.",
      "2.1. Definitions.",
    ]);
  });

  it("types headings set barely larger than the body as Title, each level apart, not a paragraph's last line", async () => {
    const doc = await PDFDocument.create();
    const { regular } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Heading Level 2", 72, 80, 12, regular);
    put(page, "Heading Level 3", 72, 96, 11, regular);
    put(page, "Some paragraph text under the headings.", 72, 111, 10, regular);
    bodyLines(page, regular, 140, 1);
    bodyLines(page, regular, 200, 2);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Heading Level 2")).toBe("Title");
    expect(typeOf("Heading Level 3")).toBe("Title");
    expect(typeOf("Some paragraph text under the headings.")).toBe("NarrativeText");
  });

  it("keeps a paper's author line and an author's affiliation lines, set a little larger than the body, out of the headings", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Hidden features of the document format", 72, 60, 18, bold);
    put(page, "Slobodan Jenko, Jingxuan He, Niels Mundler, and Mark Vero", 72, 80, 11, regular);
    const centred = (text: string, top: number, size: number) =>
      put(page, text, 200 - regular.widthOfTextAtSize(text, size) / 2, top, size, regular);
    centred("Tamir Hassan", 110, 12);
    centred("Member, Document Association", 124, 11);
    centred("Round-Trip Solutions", 137, 11);
    centred("Vienna, Austria", 150, 11);
    centred("tamir@example.com", 163, 11);
    bodyLines(page, regular, 190, 1);
    bodyLines(page, regular, 250, 2);
    const { elements } = await typesOf(doc);
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toEqual(["Hidden features of the document format"]);
  });
});

describe("headings of pages with little body text and of chapter openings", () => {
  it("takes the body's size from the smallest of sizes used about equally, so a page of heading levels keeps them", async () => {
    const doc = await PDFDocument.create();
    const { regular } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    // One line per level, the same length each, the last one the body's: no size leads by its share of the text.
    [30, 26, 22, 19, 17, 15, 13].reduce((top, size, i) => {
      put(page, `This is an H${i + 1}`, 72, top, size, regular);
      return top + size * 1.6;
    }, 60);
    const { typeOf } = await typesOf(doc);
    for (let level = 1; level <= 6; level++) expect(typeOf(`This is an H${level}`)).toBe("Title");
    expect(typeOf("This is an H7")).not.toBe("Title");
  });

  it("reads a letter-spaced chapter label, its title and the subtitle after the title's colon as one heading", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "C H A P T E R 5", 72, 60, 12, bold);
    put(page, "Physical Development:", 72, 90, 24, bold);
    put(page, "The Brain, Body and Motor Skills", 72, 124, 16, bold);
    bodyLines(page, regular, 160, 1);
    // A heading ending in a colon without a label above it stays apart from the heading under it.
    put(page, "Questions to ask:", 72, 230, 14, bold);
    put(page, "Growth in Height", 72, 252, 12, bold);
    bodyLines(page, regular, 272, 2);
    const { elements, typeOf } = await typesOf(doc);
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles[0]).toBe("C H A P T E R 5 Physical Development: The Brain, Body and Motor Skills");
    expect(typeOf("Questions to ask:")).toBe("Title");
    expect(typeOf("Growth in Height")).toBe("Title");
  });

  it("reads a chapter label on its own line and the title under it as one heading (LaTeX's report class)", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Chapter 3", 72, 90, 20, bold);
    put(page, "Operations", 72, 130, 24, bold);
    bodyLines(page, regular, 170, 1);
    put(page, "3.1 Monitoring", 72, 240, 14, bold);
    bodyLines(page, regular, 262, 2);
    const { elements } = await typesOf(doc);
    expect(elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual([
      "Chapter 3 Operations",
      "3.1 Monitoring",
    ]);
  });

  it("types a line repeated at one place on most pages, outside the margins, as furniture, not a heading", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    for (let n = 0; n < 3; n++) {
      const page = doc.addPage([PAGE.width, PAGE.height]);
      put(page, `Section heading ${n + 1}`, 72, 180, 16, bold);
      bodyLines(page, regular, 210, n);
      // A presenter's name on every slide, above the foot band, set larger than the body.
      put(page, "Jane Roe, Member of the Society", 72, 400, 14, bold);
      // A heading seen on every page but at another place each time is still a heading.
      put(page, "Summary", 72, 460 + n * 30, 14, bold);
      bodyLines(page, regular, 500 + n * 30, n + 10);
    }
    const { elements } = await typesOf(doc);
    const presenter = elements.filter((e) => e.text === "Jane Roe, Member of the Society");
    expect(presenter.map((e) => e.type)).toEqual(["Footer", "Footer", "Footer"]);
    expect(elements.filter((e) => e.text === "Summary").map((e) => e.type)).toEqual(["Title", "Title", "Title"]);
    expect(elements.filter((e) => e.text.startsWith("Section heading")).map((e) => e.type)).toEqual([
      "Title",
      "Title",
      "Title",
    ]);
  });

  it("types neither a formula set apart, a web address, a line opening with a symbol nor a code as Title", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Results", 72, 80, 14, bold);
    bodyLines(page, regular, 100, 1);
    put(page, "x + y = z", 200, 160, 14, bold);
    bodyLines(page, regular, 190, 2);
    put(page, "Our Association - www.example.org", 72, 250, 14, bold);
    bodyLines(page, regular, 280, 3);
    put(page, "\u00a9 2024 Example Society", 72, 340, 14, bold);
    bodyLines(page, regular, 370, 4);
    put(page, "ABC2024-0042", 72, 430, 14, bold);
    bodyLines(page, regular, 460, 5);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Results")).toBe("Title");
    expect(typeOf("x + y = z")).toBeDefined();
    expect(typeOf("x + y = z")).not.toBe("Title");
    expect(typeOf("Our Association - www.example.org")).toBeDefined();
    expect(typeOf("Our Association - www.example.org")).not.toBe("Title");
    expect(typeOf("\u00a9 2024 Example Society")).toBeDefined();
    expect(typeOf("\u00a9 2024 Example Society")).not.toBe("Title");
    expect(typeOf("ABC2024-0042")).toBeDefined();
    expect(typeOf("ABC2024-0042")).not.toBe("Title");
  });

  it("types short lines set one by one at the body's size as text, a heading wrapped over three lines as Title", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    // A chapter opening's list of its sections: "Motor" would have fitted after "Brain".
    const outline = ["An Overview of Maturation and Growth", "Development of the Brain", "Motor Development"];
    outline.forEach((line, i) => put(page, line, 72, 80 + i * 14, 10, bold));
    bodyLines(page, regular, 140, 1);
    // A heading broken only where the next word no longer fits.
    const wrapped = ["Growth of the Brain and the Body", "Throughout Childhood and Youth", "Around the World"];
    wrapped.forEach((line, i) => put(page, line, 72, 220 + i * 14, 10, bold));
    bodyLines(page, regular, 280, 2);
    const { elements } = await typesOf(doc);
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toContain(wrapped.join(" "));
    expect(titles.filter((t) => t.includes("Maturation") || t.includes("Motor"))).toEqual([]);
  });

  it("types the rest of a list of sections set one by one as text when a smaller line interrupts it", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const outline = ["An Overview of Maturation and Growth", "Development of the Brain", "Motor Development"];
    outline.forEach((line, i) => put(page, line, 72, 80 + i * 14, 10, bold));
    put(page, "Focus on Research: Sports and Self-Esteem", 80, 122, 8, regular);
    // Each line broken where the next word would not fit: alone, it reads as one heading wrapped.
    const rest = ["Applying Developmental Themes to Growth", "Puberty and the Physical Transition", "Causes and Correlates"];
    rest.forEach((line, i) => put(page, line, 72, 136 + i * 14, 10, bold));
    bodyLines(page, regular, 200, 1);
    const { elements } = await typesOf(doc);
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(elements.some((e) => e.text.startsWith("Applying Developmental"))).toBe(true);
    expect(titles.filter((t) => t.includes("Applying") || t.includes("Puberty"))).toEqual([]);
  });
});

describe("headings beside little text and with formulas", () => {
  it("takes the body's font from the text at the body's size, so a line under a long title is not set apart", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const times = await doc.embedFont(StandardFonts.TimesRoman);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    // The title holds more characters than either font at the body's size, fewer than both together.
    put(page, "1 A small example", 72, 80, 20, bold);
    put(page, "Some text here", 72, 110, 12, regular);
    put(page, "E = mc2 + x", 260, 140, 12, times);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("1 A small example")).toBe("Title");
    expect(typeOf("Some text here")).toBeDefined();
    expect(typeOf("Some text here")).not.toBe("Title");
  });

  it("keeps a bold heading with a formula in another font apart from its paragraph, as Title", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const mathBold = await doc.embedFont(StandardFonts.TimesRomanBoldItalic);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "1. INTRODUCTION", 72, 68, 10, bold);
    bodyLines(page, regular, 80, 1);
    const label = "6. MORE ON MATH: ";
    put(page, label, 72, 160, 10, bold);
    put(page, "u \u00b7 w = 0", 72 + bold.widthOfTextAtSize(label, 10), 160, 10, mathBold);
    bodyLines(page, regular, 172, 2);
    // An item's number set in a font of its own is a list's numbering: the line stays a list item.
    put(page, "7. ", 72, 240, 10, mathBold);
    put(page, "CLOSING OF THE MEETING", 72 + mathBold.widthOfTextAtSize("7. ", 10), 240, 10, bold);
    bodyLines(page, regular, 252, 3);
    const { elements } = await typesOf(doc);
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toEqual(["1. INTRODUCTION", "6. MORE ON MATH: u \u00b7 w = 0"]);
    expect(elements.find((e) => e.text.includes("CLOSING"))?.type).toBe("ListItem");
  });
});
