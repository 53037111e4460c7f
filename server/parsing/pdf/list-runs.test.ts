import { StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { pageWithProse, put } from "./test-fixtures";

/** Clauses numbered "2.1", "2.2" set without a hanging indent: their wrapped lines go back to the number's edge. */

describe("numbered clauses without a hanging indent", () => {
  it("keeps a clause's line after its sentence's end in the clause when the next clause follows it", async () => {
    const { doc, font, page } = await pageWithProse();
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    put(page, "2. Booking a delivery", 72, 176, 12, bold);
    put(
      page,
      "2.1 You must give an accurate description, weight and size for every parcel you book.",
      72,
      200,
      10,
      font,
    );
    put(
      page,
      "2.2 A booking is confirmed when we send you a confirmation email with a tracking number.",
      72,
      220,
      10,
      font,
    );
    put(page, "Until then we may decline a booking for any reason.", 72, 234, 10, font);
    put(
      page,
      "2.3 You are responsible for packaging each parcel so that it withstands normal handling.",
      72,
      254,
      10,
      font,
    );
    // After the last clause, a paragraph at the same edge is the text after the list.
    put(page, "We review these terms every year and publish the changes on our website.", 72, 274, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const typeOf = (start: string) => elements.find((e) => e.text.startsWith(start))?.type;
    const clause = elements.find((e) => e.text.startsWith("2.2"));
    expect(clause?.text).toBe(
      "2.2 A booking is confirmed when we send you a confirmation email with a tracking number. " +
        "Until then we may decline a booking for any reason.",
    );
    expect(clause?.type).toBe("ListItem");
    expect(typeOf("2.3 You are")).toBe("ListItem");
    expect(typeOf("We review these terms")).toBe("NarrativeText");
  });
});
