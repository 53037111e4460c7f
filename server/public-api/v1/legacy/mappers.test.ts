import { describe, expect, it } from "vitest";
import { mimeTypeOf, toLegacyElementDto } from "./mappers";

const element = {
  id: "00000000-0000-4000-8000-000000000000",
  projectId: "p",
  sourceId: "s",
  buildId: "b",
  elementId: "a".repeat(32),
  position: 3,
  elementType: "Table",
  text: "a b",
  markdown: null,
  html: "<table><tr><td>a</td><td>b</td></tr></table>",
  pageNumber: 2,
  boundingBox: { left: 10, top: 20, width: 100, height: 50 },
  pageLayout: { width: 612, height: 792 },
  pageAnnotation: null,
  pageKeywords: [],
  pageTopics: [],
  metadata: { languages: ["eng"] },
};
const createdAt = new Date("2026-05-01T10:00:00Z");

describe("legacy element", () => {
  it("is a Document with the element in its metadata and the box as four corners", () => {
    expect(toLegacyElementDto(element, { fileName: "r.pdf", fileType: "pdf", createdAt })).toEqual({
      id: null,
      page_content: "a b",
      type: "Document",
      metadata: {
        element_id: "a".repeat(32),
        element_type: "Table",
        page_number: 2,
        position: 3,
        filename: "r.pdf",
        filetype: "application/pdf",
        languages: ["eng"],
        last_modified: "2026-05-01T10:00:00.000Z",
        text_as_html: element.html,
        coordinates: {
          points: [
            [10, 20],
            [10, 70],
            [110, 70],
            [110, 20],
          ],
          system: "PointSpace",
          layout_width: 612,
          layout_height: 792,
        },
      },
    });
  });

  it("uses pixel space for images and null coordinates without a box", () => {
    const image = toLegacyElementDto(element, { fileName: "scan.PNG", fileType: "png", createdAt });
    expect(image.metadata.coordinates?.system).toBe("PixelSpace");
    expect(image.metadata.filetype).toBe("image/png");
    const plain = toLegacyElementDto(
      { ...element, boundingBox: null, pageLayout: null, html: null, metadata: {} },
      { fileName: "a.txt", fileType: "txt", createdAt },
    );
    expect(plain.metadata).toMatchObject({
      coordinates: null,
      text_as_html: null,
      languages: [],
      filetype: "text/plain",
    });
  });

  it("knows a MIME type for every accepted extension", async () => {
    const { ALLOWED_EXTENSIONS } = await import("@/server/sources/sources.schema");
    expect(ALLOWED_EXTENSIONS.filter((ext) => !mimeTypeOf(ext))).toEqual([]);
  });
});
