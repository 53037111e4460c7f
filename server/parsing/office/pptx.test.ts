import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { partitionPptx } from "./pptx";
import { buildPptx, expectUnprocessable, pPicture, pShape, pTable, TINY_PNG } from "./test-fixtures";

describe("partitionPptx", () => {
  it("reads a slide in reading order with positions in points", async () => {
    const pptx = await buildPptx({
      size: [960, 540],
      slides: [
        {
          notes: "Remember to thank the volunteers.",
          images: { rIdPic: TINY_PNG },
          shapes: [
            // Written first in the file but lowest on the slide.
            pTable(
              [36, 420, 400, 60],
              [
                [{ text: "Region", gridSpan: 2 }, { text: "", hMerge: true }, "Total"],
                ["North", "East", "42"],
              ],
            ),
            // A text box near the body's top edge, to its right: same band, read after the body.
            pShape({ name: "TextBox", box: [600, 130, 300, 50], paragraphs: ["Side note in a text box."] }),
            pPicture("rIdPic", [600, 300, 100, 80], "Bar chart of sales"),
            // The body placeholder has no position of its own: the layout's applies.
            pShape({
              ph: { idx: 1 },
              paragraphs: [
                "Inherited bullet from the master",
                { text: "Second level bullet", level: 1 },
                { text: "This paragraph turns bullets off.", bullet: false },
              ],
            }),
            // The title is read first wherever it sits.
            pShape({ ph: { type: "title" }, box: [36, 480, 888, 40], paragraphs: ["Quarterly Review"] }),
          ],
        },
      ],
    });
    const { elements, totalPages } = await partitionPptx(pptx);
    expect(totalPages).toBe(1);
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Quarterly Review"],
      ["ListItem", "Inherited bullet from the master"],
      ["ListItem", "Second level bullet"],
      ["NarrativeText", "This paragraph turns bullets off."],
      ["NarrativeText", "Side note in a text box."],
      ["Image", "Bar chart of sales"],
      ["Table", "Region Total\nNorth East 42"],
      ["NarrativeText", "Remember to thank the volunteers."],
    ]);
    expect(elements.every((e) => e.pageNumber === 1)).toBe(true);
    const [title, first, second] = elements;
    expect(title?.pageLayout).toEqual({ width: 960, height: 540 });
    expect(title?.boundingBox).toEqual({ left: 36, top: 480, width: 888, height: 40 });
    expect(title?.markdown).toBe("# Quarterly Review");
    // From the layout: off (457200, 1600200) EMU, ext (8229600, 4525963) EMU.
    expect(first?.boundingBox).toEqual({ left: 36, top: 126, width: 648, height: 356.38 });
    expect(first?.metadata).toMatchObject({ level: 0 });
    expect(second?.metadata).toMatchObject({ level: 1 });
    expect(second?.markdown).toBe("  - Second level bullet");
    const image = elements.find((e) => e.type === "Image");
    expect(image?.imgBase64).toBe(TINY_PNG.toString("base64"));
    expect(image?.boundingBox).toEqual({ left: 600, top: 300, width: 100, height: 80 });
    const table = elements.find((e) => e.type === "Table");
    expect(table?.html).toBe(
      '<table><thead><tr><th colspan="2">Region</th><th>Total</th></tr></thead><tbody><tr><td>North</td><td>East</td><td>42</td></tr></tbody></table>',
    );
    const notes = elements[elements.length - 1];
    expect(notes?.metadata).toEqual({ notes: true });
    expect(notes?.boundingBox ?? null).toBeNull();
  });

  it("numbers pages by slide", async () => {
    const pptx = await buildPptx({
      slides: [
        { shapes: [pShape({ ph: { type: "ctrTitle" }, box: [50, 200, 620, 80], paragraphs: ["Opening"] })] },
        { shapes: [pShape({ ph: { type: "title" }, paragraphs: ["Agenda"] })] },
        { shapes: [pShape({ box: [50, 50, 600, 100], paragraphs: ["Thank you for listening to this talk."] })] },
      ],
    });
    const { elements, totalPages } = await partitionPptx(pptx);
    expect(totalPages).toBe(3);
    expect(elements.map((e) => [e.type, e.text, e.pageNumber])).toEqual([
      ["Title", "Opening", 1],
      ["Title", "Agenda", 2],
      ["NarrativeText", "Thank you for listening to this talk.", 3],
    ]);
    // The title without a position takes the layout's.
    expect(elements[1]?.boundingBox).toEqual({ left: 36, top: 21.63, width: 648, height: 90 });
  });

  it("reads code typed onto a slide in a fixed-pitch face as one listing, indentation and blank lines kept", async () => {
    const consolas = (text: string) => ({ text, font: "Consolas", bullet: false as const });
    const pptx = await buildPptx({
      slides: [
        {
          shapes: [
            pShape({ ph: { type: "title" }, box: [36, 20, 888, 40], paragraphs: ["Calling the API"] }),
            pShape({
              name: "TextBox",
              box: [36, 100, 600, 200],
              paragraphs: [
                consolas("def search(query):"),
                consolas("    hits = client.search(query)"),
                consolas(""),
                consolas("    return hits[:10]"),
              ],
            }),
            // A sentence with one word in the fixed-pitch face is prose.
            pShape({
              name: "TextBox",
              box: [36, 320, 600, 40],
              paragraphs: [{ text: "search()", font: "Courier New", runs: [" returns the ten best hits."] }],
            }),
            // Runs in the theme's face: a deck whose theme is fixed-pitch has no code by font.
            pShape({ name: "TextBox", box: [36, 380, 600, 40], paragraphs: [{ text: "Questions?", font: "+mn-lt" }] }),
          ],
        },
      ],
    });
    const { elements } = await partitionPptx(pptx);
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Calling the API"],
      ["CodeSnippet", "def search(query):\n    hits = client.search(query)\n\n    return hits[:10]"],
      ["NarrativeText", "search() returns the ten best hits."],
      ["NarrativeText", "Questions?"],
    ]);
    expect(elements[1]?.markdown).toBe(
      "```\ndef search(query):\n    hits = client.search(query)\n\n    return hits[:10]\n```",
    );
  });

  describe("malformed files end as UNPROCESSABLE", () => {
    it("a truncated file", async () => {
      const pptx = await buildPptx({ slides: [{ shapes: [pShape({ paragraphs: ["Text ".repeat(300)] })] }] });
      await expectUnprocessable(partitionPptx(pptx.subarray(0, pptx.length - 100)));
    });

    it("a package without a presentation part", async () => {
      const zip = new JSZip();
      zip.file("ppt/slides/slide1.xml", "<p:sld/>");
      const error = await expectUnprocessable(partitionPptx(await zip.generateAsync({ type: "uint8array" })));
      expect(error.message).toMatch(/not a valid presentation/);
    });

    it("a presentation part that is not XML", async () => {
      const pptx = await buildPptx({ slides: [], rawPresentation: "garbage <<< >>>" });
      await expectUnprocessable(partitionPptx(pptx));
    });

    it("a slide part that is not a slide is skipped with a warning", async () => {
      const zip = await JSZip.loadAsync(
        await buildPptx({ slides: [{ shapes: [] }, { shapes: [pShape({ paragraphs: ["Still here."] })] }] }),
      );
      zip.file("ppt/slides/slide1.xml", "<notASlide/>");
      const result = await partitionPptx(await zip.generateAsync({ type: "uint8array" }));
      expect(result.warnings).toEqual(["Slide 1 could not be read (its part is not a slide)"]);
      expect(result.elements.map((e) => [e.text, e.pageNumber])).toEqual([["Still here.", 2]]);
    });

    it("a slide with an entity-expansion DOCTYPE", async () => {
      const zip = await JSZip.loadAsync(await buildPptx({ slides: [{ shapes: [] }] }));
      zip.file("ppt/slides/slide1.xml", '<!DOCTYPE x [<!ENTITY a "aaaaaaaa">]><p:sld>&a;</p:sld>');
      const error = await expectUnprocessable(partitionPptx(await zip.generateAsync({ type: "uint8array" })));
      expect(error.message).toMatch(/DOCTYPE/);
    });
  });
});
