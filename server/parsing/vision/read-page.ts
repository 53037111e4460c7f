import { AppError } from "@/server/errors";
import type { ChatMessage } from "@/server/providers/chat/types";
import type { VisionModel } from "@/server/providers/vision/types";
import type { ParsedElement } from "../types";
import type { UnitBox, VisionElement } from "./answer";
import { cropPng } from "./crop";
import { PAGE_READER_PROMPT, REPAIR_PROMPT } from "./prompt";

/** A dense page is a few thousand tokens of JSON; this leaves room without letting a looping model run forever. */
const MAX_ANSWER_TOKENS = 8192;
export const VISION_PAGE_TIMEOUT_MS = 180_000;
/** Pictures the model points at are cut out of the page; a page rarely holds more. */
const MAX_CROPS_PER_PAGE = 20;
const MAX_CROP_SIDE = 2000;
/** The bad answer is echoed back for the repair turn; a runaway answer is cut. */
const MAX_ECHOED_ANSWER = 8000;

export type VisionPage = {
  png: Buffer;
  /** Pixel size of the image. */
  width: number;
  height: number;
  /** Page size in the coordinates boxes are reported in: PDF points for PDFs, pixels for image files. */
  layout: { width: number; height: number };
  pageNumber: number;
};

export type VisionPageResult = { elements: ParsedElement[]; model: string; dropped: number };

const round = (n: number) => Math.round(n * 100) / 100;

const toPageBox = (box: UnitBox, layout: { width: number; height: number }) => ({
  left: round(box.x0 * layout.width),
  top: round(box.y0 * layout.height),
  width: round((box.x1 - box.x0) * layout.width),
  height: round((box.y1 - box.y0) * layout.height),
});

/** Image and Chart elements with a box get their pixels: the part of the page image the model pointed at. */
const cropPictures = async (page: VisionPage, elements: VisionElement[]): Promise<Map<VisionElement, string>> => {
  const pictures = elements
    .filter((e) => (e.type === "Image" || e.type === "Chart") && e.box)
    .slice(0, MAX_CROPS_PER_PAGE);
  const crops = await cropPng(
    page.png,
    pictures.map(({ box }) => {
      const b = box as UnitBox;
      return {
        left: b.x0 * page.width,
        top: b.y0 * page.height,
        width: (b.x1 - b.x0) * page.width,
        height: (b.y1 - b.y0) * page.height,
      };
    }),
    MAX_CROP_SIDE,
  );
  const byElement = new Map<VisionElement, string>();
  pictures.forEach((p, i) => {
    const crop = crops[i];
    if (crop) byElement.set(p, crop.png.toString("base64"));
  });
  return byElement;
};

/**
 * Reads one page image with a vision model: elements in reading order with types, text, table HTML and boxes in
 * page coordinates. An answer that is not the JSON asked for gets one repair turn; a second bad answer fails the
 * page with the model's name, so a person knows which model to change.
 */
export const readPageWithVision = async (
  model: VisionModel,
  page: VisionPage,
  { timeoutMs = VISION_PAGE_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<VisionPageResult> => {
  const messages: ChatMessage[] = [
    { role: "system", content: PAGE_READER_PROMPT },
    {
      role: "user",
      content: [
        { type: "text", text: `Page ${page.pageNumber}, ${page.width}×${page.height} pixels.` },
        {
          type: "image_url",
          image_url: { url: `data:image/png;base64,${page.png.toString("base64")}`, detail: "high" },
        },
      ],
    },
  ];
  const ask = (conversation: ChatMessage[]) =>
    model.completeJson({ messages: conversation, maxTokens: MAX_ANSWER_TOKENS, timeoutMs });

  // Loaded here: the answer parser brings cheerio (about half a second of a parse worker's start), and most PDFs
  // that load this module (auto's) never call a vision model.
  const { parseVisionAnswer } = await import("./answer");
  const size = { width: page.width, height: page.height };
  let reply = await ask(messages);
  let parsed = parseVisionAnswer(reply.text, size);
  if (!parsed.ok) {
    reply = await ask([
      ...messages,
      { role: "assistant", content: reply.text.slice(0, MAX_ECHOED_ANSWER) },
      { role: "user", content: REPAIR_PROMPT(parsed.error) },
    ]);
    parsed = parseVisionAnswer(reply.text, size);
  }
  if (!parsed.ok) {
    throw new AppError(
      "UNPROCESSABLE",
      `The vision model ${model.id} did not answer page ${page.pageNumber} with the JSON elements asked for ` +
        `(${parsed.error}); try another VISION_MODEL`,
    );
  }

  const pictures = await cropPictures(page, parsed.elements);
  const elements = parsed.elements.map((e): ParsedElement => ({
    type: e.type,
    text: e.text,
    html: e.html,
    pageNumber: page.pageNumber,
    boundingBox: e.box ? toPageBox(e.box, page.layout) : null,
    pageLayout: { width: round(page.layout.width), height: round(page.layout.height) },
    ...(pictures.has(e) ? { imgBase64: pictures.get(e) } : {}),
    metadata: { method: "agentic", model: reply.model },
  }));
  return { elements, model: reply.model, dropped: parsed.dropped };
};
