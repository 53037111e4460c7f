import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { monospaceListings } from "./references";

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
