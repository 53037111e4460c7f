import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { monospaceListings, structText, type StructNode } from "./references";

describe("listings of an untagged PDF, for code recall", () => {
  it("takes two or more lines in a typewriter font as a listing, and not a fixed-pitch word in prose", async () => {
    const doc = await PDFDocument.create();
    const sans = await doc.embedFont(StandardFonts.Helvetica);
    const mono = await doc.embedFont(StandardFonts.Courier);
    const page = doc.addPage([612, 792]);
    page.drawText("Run the command below to list the users.", { x: 72, y: 700, size: 11, font: sans });
    const listing = ["SELECT id, name", "  FROM users", " WHERE active = 1;"];
    listing.forEach((line, i) => page.drawText(line, { x: 72, y: 670 - i * 13, size: 10, font: mono }));
    page.drawText("The result is printed by", { x: 72, y: 600, size: 11, font: sans });
    page.drawText("psql", { x: 200, y: 600, size: 11, font: mono });
    page.drawText("as a table.", { x: 230, y: 600, size: 11, font: sans });
    const listings = await monospaceListings(await doc.save(), 1);
    expect(listings).toHaveLength(1);
    expect(listings[0]?.split("\n")).toEqual(["SELECT id, name", "FROM users", "WHERE active = 1;"]);
  });
});

describe("list items of a tagged PDF", () => {
  it("leaves a nested list out of its parent item's text: each nested item is an item of its own", () => {
    const content = (id: string): StructNode => ({ type: "content", id });
    const byId = new Map([
      ["c1", ["2."]],
      ["c2", ["Outer item"]],
      ["c3", ["a)"]],
      ["c4", ["Inner item"]],
    ]);
    const inner: StructNode = { role: "LI", children: [{ role: "Lbl", children: [content("c3")] }, content("c4")] };
    const outer: StructNode = {
      role: "LI",
      children: [
        { role: "Lbl", children: [content("c1")] },
        { role: "LBody", children: [content("c2"), { role: "L", children: [inner] }] },
      ],
    };
    expect(structText(outer, byId, "L")).toBe("2. Outer item");
    expect(structText(inner, byId, "L")).toBe("a) Inner item");
    expect(structText(outer, byId)).toBe("2. Outer item a) Inner item");
  });

  it("leaves a footnote tagged inside a heading out of the heading's text", () => {
    const content = (id: string): StructNode => ({ type: "content", id });
    const byId = new Map([
      ["c1", ["5. Formatting"]],
      ["c2", ["3"]],
      ["c3", ["3 The note's text at the page's foot."]],
    ]);
    const heading: StructNode = {
      role: "H1",
      children: [
        content("c1"),
        { role: "Lbl", children: [content("c2")] },
        { role: "Note", children: [content("c3")] },
      ],
    };
    expect(structText(heading, byId, /^(?:Note|FENote)$/)).toBe("5. Formatting 3");
  });
});
