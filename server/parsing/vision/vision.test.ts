import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { createVisionModel } from "@/server/providers/vision/client";
import { normalizeBox, normalizeType, parseVisionAnswer } from "./answer";
import { readPageWithVision, type VisionPage } from "./read-page";
import {
  drawScannedPage,
  pngSize,
  SCANNED_PAGE,
  startFakeVisionServer,
  visionAnswer,
  type FakeVisionServer,
  type Reply,
} from "./test-fixtures";

const IMAGE = { width: 1000, height: 2000 };

describe("vision answers", () => {
  it("maps type names, drops empty texts, clamps and orders boxes", () => {
    const parsed = parseVisionAnswer(
      JSON.stringify({
        elements: [
          { type: "Title", text: "  Annual Report  ", bbox: [0.1, 0.05, 0.9, 0.1] },
          { type: "narrative_text", text: "First paragraph.", bbox: [0.9, 0.3, 0.1, 0.2] },
          { type: "Sidebar", text: "Aside", bbox: [-0.2, 0.5, 1.4, 0.6] },
          { type: "NarrativeText", text: "   " },
          { type: "Image", text: "", bbox: [0.2, 0.6, 0.8, 0.9] },
          { type: "Image", text: "" },
          { type: "ListItem", text: 42, bbox: ["0.1", "0.91", "0.5", "0.93"] },
          { type: "PageNumber", text: "7", bbox: [0.5, 0.5, 0.5, 0.6] },
          "not an element",
        ],
      }),
      IMAGE,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Annual Report"],
      ["NarrativeText", "First paragraph."],
      ["UncategorizedText", "Aside"],
      ["Image", ""],
      ["ListItem", "42"],
      ["PageNumber", "7"],
    ]);
    expect(parsed.dropped).toBe(3);
    expect(parsed.elements[1]?.box).toEqual({ x0: 0.1, y0: 0.2, x1: 0.9, y1: 0.3 });
    expect(parsed.elements[2]?.box).toEqual({ x0: 0, y0: 0.5, x1: 1, y1: 0.6 });
    expect(parsed.elements[4]?.box).toEqual({ x0: 0.1, y0: 0.91, x1: 0.5, y1: 0.93 });
    // A box without area is no box; the element stays.
    expect(parsed.elements[5]?.box).toBeNull();
  });

  it("reads boxes given in pixels of the image and refuses ones outside it", () => {
    expect(normalizeBox([100, 200, 500, 400], IMAGE)).toEqual({ x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.2 });
    expect(normalizeBox([100, 200, 5000, 400], IMAGE)).toBeNull();
    expect(normalizeBox([0.1, 0.2, 0.3], IMAGE)).toBeNull();
    expect(normalizeType("FIGURE_CAPTION")).toBe("FigureCaption");
    expect(normalizeType("paragraph")).toBe("UncategorizedText");
  });

  it("rebuilds table markup as a clean <table> and takes the table text from it", () => {
    const parsed = parseVisionAnswer(
      visionAnswer([
        {
          type: "Table",
          text: "whatever the model wrote",
          html:
            '<p>intro</p><table class="x" onclick="alert(1)"><thead><tr><th colspan="2">Region</th><th>Total</th></tr></thead>' +
            "<tbody><tr><td>North</td><td>East</td><td><b>12</b><script>bad()</script></td></tr></tbody></table>",
        },
        { type: "Table", text: "Name | Qty\nBolt | 4\nNut | 9" },
      ]),
      IMAGE,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [fromHtml, fromText] = parsed.elements;
    expect(fromHtml?.html).toBe(
      '<table><tr><th colspan="2">Region</th><th>Total</th></tr><tr><td>North</td><td>East</td><td>12bad()</td></tr></table>',
    );
    expect(fromHtml?.html).not.toMatch(/onclick|script|class/);
    expect(fromHtml?.text).toBe("Region Total\nNorth East 12bad()");
    expect(fromText?.html).toBe(
      "<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>Bolt</td><td>4</td></tr><tr><td>Nut</td><td>9</td></tr></tbody></table>",
    );
  });

  it("accepts a fenced answer and a bare list; rejects prose and objects without elements", () => {
    expect(parseVisionAnswer('```json\n{"elements": [{"type": "Title", "text": "A"}]}\n```', IMAGE).ok).toBe(true);
    expect(parseVisionAnswer('[{"type": "Title", "text": "A"}]', IMAGE).ok).toBe(true);
    expect(parseVisionAnswer("Here is the page: Title A", IMAGE)).toMatchObject({ ok: false, error: /not JSON/ });
    expect(parseVisionAnswer('{"items": []}', IMAGE)).toMatchObject({ ok: false, error: /elements/ });
  });
});

describe("reading a page with a vision model", () => {
  let server: FakeVisionServer;
  let reply: (index: number) => Reply = () => ({ status: 500, error: "not set" });
  const png = drawScannedPage(850, 1100);
  const page: VisionPage = { png, width: 850, height: 1100, layout: { width: 612, height: 792 }, pageNumber: 4 };
  const goodAnswer = visionAnswer([
    { type: "Title", text: SCANNED_PAGE.title.text, bbox: SCANNED_PAGE.title.bbox },
    ...SCANNED_PAGE.lines.map((l) => ({ type: "NarrativeText", text: l.text, bbox: l.bbox })),
    { type: "Image", text: "A blank area", bbox: [0.1, 0.5, 0.5, 0.7] },
  ]);

  beforeAll(async () => {
    server = await startFakeVisionServer((_request, index) => reply(index));
  });
  afterAll(() => server.close());

  const model = () => createVisionModel({ baseUrl: server.baseUrl, apiKey: "sk-test", model: "vision-test" });

  it("sends the page as a PNG data URL and converts boxes to page coordinates", async () => {
    const before = server.requests.length;
    reply = () => ({ status: 200, content: goodAnswer, model: "vision-test-0613" });
    const result = await readPageWithVision(model(), page);
    const request = server.requests[before];
    expect(request).toMatchObject({
      model: "vision-test",
      width: 850,
      height: 1100,
      detail: "high",
      jsonMode: true,
      authorization: "Bearer sk-test",
      pageNumber: 4,
      followUps: 0,
    });
    expect(result.model).toBe("vision-test-0613");
    expect(result.elements.map((e) => e.type)).toEqual(["Title", "NarrativeText", "NarrativeText", "Image"]);
    const title = result.elements[0];
    expect(title).toMatchObject({
      text: SCANNED_PAGE.title.text,
      pageNumber: 4,
      pageLayout: { width: 612, height: 792 },
    });
    expect(title?.boundingBox).toEqual({ left: 61.2, top: 63.36, width: 318.24, height: 31.68 });
    expect(title?.metadata).toEqual({ method: "agentic", model: "vision-test-0613" });
    // The picture the model pointed at is cut out of the page image: 40% × 20% of 850 × 1100 pixels.
    const image = result.elements[3];
    expect(pngSize(Buffer.from(image?.imgBase64 ?? "", "base64"))).toEqual({ width: 340, height: 220 });
  });

  it("asks once more after a malformed answer, then uses the repaired one", async () => {
    const before = server.requests.length;
    reply = (index) =>
      index === before
        ? { status: 200, content: '{"elements": [{"type": "Title", "text": "Quarterly' }
        : { status: 200, content: goodAnswer };
    const result = await readPageWithVision(model(), page);
    expect(server.requests.length - before).toBe(2);
    expect(server.requests[before + 1]?.followUps).toBe(2); // the bad answer and the repair instruction
    expect(result.elements[0]?.text).toBe(SCANNED_PAGE.title.text);
  });

  it("fails with the model's name when the repair is malformed too", async () => {
    const before = server.requests.length;
    reply = () => ({ status: 200, content: "I cannot read this page, sorry." });
    const error = await readPageWithVision(model(), page).catch((e: unknown) => e);
    expect(server.requests.length - before).toBe(2);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "UNPROCESSABLE", message: expect.stringContaining("vision-test") });
    expect((error as Error).message).toMatch(/page 4/);
  });

  it("reports a server error with its status", async () => {
    reply = () => ({ status: 500, error: "upstream overloaded" });
    const error = await readPageWithVision(model(), page).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as Error).message).toBe("The model vision-test failed (HTTP 500): upstream overloaded");
  });
});
