import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createCanvas } from "@napi-rs/canvas";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { blankPage } from "../ocr/test-fixtures";

/**
 * Test support for the vision-based parsers (nothing in the app imports this): a local stand-in for an
 * OpenAI-compatible vision server, and PDFs / images built in code whose content the stand-in "sees".
 */

// ---------------------------------------------------------------------------------------------------------------
// Fake vision server

export type SeenRequest = {
  model: string;
  /** The page number the client named in its text part ("Page 3, …"), if any. */
  pageNumber: number | null;
  /** Pixel size read from the PNG header of the image sent. */
  width: number;
  height: number;
  png: Buffer;
  detail: string | undefined;
  jsonMode: boolean;
  authorization: string | undefined;
  /** Messages after the first user message (a repair turn, when present). */
  followUps: number;
};

export type Reply = { status: 200; content: string; model?: string } | { status: number; error: string };

export type FakeVisionServer = {
  /** Base URL to put in VISION_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: SeenRequest[];
  close: () => Promise<void>;
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export const pngSize = (png: Buffer): { width: number; height: number } | null =>
  png.length >= 24 && png.subarray(0, 8).equals(PNG_SIGNATURE) && png.toString("latin1", 12, 16) === "IHDR"
    ? { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
    : null;

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

type ContentPart = { type: string; text?: string; image_url?: { url?: string; detail?: string } };
type ChatBody = {
  model?: string;
  messages?: { role: string; content: string | ContentPart[] }[];
  response_format?: { type?: string };
};

/**
 * Serves POST /v1/chat/completions like an OpenAI-compatible vision server. Every request must carry a PNG page
 * image as a data URL (else 400, the way a real server rejects it); `answer` decides the reply for that request.
 */
export const startFakeVisionServer = async (
  answer: (request: SeenRequest, index: number) => Reply,
): Promise<FakeVisionServer> => {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        return send(404, { error: { message: `No route ${req.method} ${req.url}` } });
      }
      const body = JSON.parse(await readBody(req)) as ChatBody;
      const messages = body.messages ?? [];
      const firstUser = messages.findIndex((m) => m.role === "user");
      const parts = Array.isArray(messages[firstUser]?.content) ? (messages[firstUser]?.content as ContentPart[]) : [];
      const image = parts.find((p) => p.type === "image_url");
      const url = image?.image_url?.url ?? "";
      const match = /^data:image\/png;base64,(.+)$/.exec(url);
      const png = match ? Buffer.from(match[1] as string, "base64") : null;
      const size = png ? pngSize(png) : null;
      if (!body.model || !png || !size) {
        return send(400, { error: { message: "Expected a model and an image_url with a PNG data URL" } });
      }
      const text = parts.find((p) => p.type === "text")?.text ?? "";
      const seen: SeenRequest = {
        model: body.model,
        pageNumber: /Page (\d+)/.exec(text) ? Number(/Page (\d+)/.exec(text)?.[1]) : null,
        ...size,
        png,
        detail: image?.image_url?.detail,
        jsonMode: body.response_format?.type === "json_object",
        authorization: req.headers.authorization,
        followUps: messages.length - firstUser - 1,
      };
      const index = requests.push(seen) - 1;
      const reply = answer(seen, index);
      if (reply.status !== 200 || !("content" in reply)) {
        return send(reply.status, { error: { message: "error" in reply ? reply.error : "failed" } });
      }
      send(200, {
        id: `chatcmpl-${index}`,
        object: "chat.completion",
        model: reply.model ?? `${body.model}-2025-01-01`,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply.content } }],
        usage: { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 },
      });
    })().catch((error: unknown) => send(500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The JSON a vision model answers: elements with boxes as fractions of the page. */
export const visionAnswer = (
  elements: { type: string; text: string; html?: string; bbox?: [number, number, number, number] }[],
): string => JSON.stringify({ elements });

// ---------------------------------------------------------------------------------------------------------------
// Documents

export const PAGE = { width: 612, height: 792 } as const;
/** renderPage at 150 dpi: what the vision model receives for a Letter page. */
export const PAGE_PIXELS_150DPI = { width: 1275, height: 1650 } as const;

/** What the scanned page of the mixed PDF shows, with each line's box as fractions of the page. */
export const SCANNED_PAGE = {
  title: { text: "Quarterly Scan Report", bbox: [0.1, 0.08, 0.62, 0.12] as [number, number, number, number] },
  lines: [
    { text: "Shipments arrived on time in every region.", bbox: [0.1, 0.18, 0.8, 0.21] },
    { text: "Returns fell by four percent over the quarter.", bbox: [0.1, 0.23, 0.82, 0.26] },
  ] as { text: string; bbox: [number, number, number, number] }[],
};

/** A scanned page as a PNG: black text on white at the positions SCANNED_PAGE lists. */
export const drawScannedPage = (width = 1275, height = 1650): Buffer => {
  const { canvas, ctx } = blankPage(width, height);
  ctx.font = `bold ${Math.round(height * 0.03)}px "DejaVu Sans"`;
  ctx.fillText(SCANNED_PAGE.title.text, width * 0.1, height * 0.08);
  ctx.font = `${Math.round(height * 0.018)}px "DejaVu Sans"`;
  for (const line of SCANNED_PAGE.lines) ctx.fillText(line.text, width * line.bbox[0], height * line.bbox[1]);
  return canvas.toBuffer("image/png");
};

/** A picture for figure tests: a bar chart with a frame, no text. */
export const drawChart = (width: number, height: number): Buffer => {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#f4f4ff";
  ctx.fillRect(0, 0, width, height);
  ctx.strokeStyle = "#000000";
  ctx.lineWidth = 4;
  ctx.strokeRect(2, 2, width - 4, height - 4);
  const colors = ["#d62728", "#2ca02c", "#1f77b4", "#ff7f0e"];
  colors.forEach((color, i) => {
    ctx.fillStyle = color;
    const barHeight = height * (0.3 + 0.15 * i);
    ctx.fillRect(width * (0.1 + 0.2 * i), height - barHeight - 10, width * 0.14, barHeight);
  });
  return canvas.toBuffer("image/png");
};

export const TEXT_PAGE = {
  title: "Routing Pages by Content",
  paragraph:
    "Quarry reads each page with the method that suits it: plain text pages use the text layer, pages with " +
    "tables go through table recognition and scanned pages are read from their pixels.",
};

export const TABLE_ROWS = [
  ["Region", "Orders", "Returns"],
  ["North", "1200", "31"],
  ["South", "980", "22"],
  ["West", "1430", "40"],
];

/** Where the ruled table sits on page 2 (points, top-left origin). */
export const TABLE_BOX = { left: 72, top: 160, colWidth: 150, rowHeight: 24 } as const;

/**
 * Three pages: (1) a title and a paragraph, (2) a caption and a table ruled with drawn lines, (3) nothing but a
 * full-page picture of text (a scan).
 */
export const buildMixedPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const y = (top: number, size = 0) => PAGE.height - top - size;

  const p1 = doc.addPage([PAGE.width, PAGE.height]);
  p1.drawText(TEXT_PAGE.title, { x: 72, y: y(80, 20), size: 20, font: bold });
  p1.drawText(TEXT_PAGE.paragraph, { x: 72, y: y(130, 11), size: 11, font: regular, maxWidth: 468, lineHeight: 14 });

  const p2 = doc.addPage([PAGE.width, PAGE.height]);
  p2.drawText("Table 1: Orders and returns by region.", { x: 72, y: y(130, 11), size: 11, font: regular });
  const { left, top, colWidth, rowHeight } = TABLE_BOX;
  const right = left + colWidth * 3;
  for (let r = 0; r <= TABLE_ROWS.length; r++) {
    p2.drawLine({
      start: { x: left, y: y(top + r * rowHeight) },
      end: { x: right, y: y(top + r * rowHeight) },
      thickness: 0.8,
      color: rgb(0, 0, 0),
    });
  }
  for (let c = 0; c <= 3; c++) {
    const x = left + c * colWidth;
    p2.drawLine({
      start: { x, y: y(top) },
      end: { x, y: y(top + TABLE_ROWS.length * rowHeight) },
      thickness: 0.8,
      color: rgb(0, 0, 0),
    });
  }
  TABLE_ROWS.forEach((row, r) =>
    row.forEach((cell, c) =>
      p2.drawText(cell, {
        x: left + c * colWidth + 6,
        y: y(top + r * rowHeight + 7, 10),
        size: 10,
        font: r === 0 ? bold : regular,
      }),
    ),
  );

  const p3 = doc.addPage([PAGE.width, PAGE.height]);
  const scan = await doc.embedPng(drawScannedPage());
  p3.drawImage(scan, { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
  return doc.save();
};

/** Where the figure of buildFigurePdf sits (points, top-left origin), and a small logo that is not a figure. */
export const FIGURE_BOX = { left: 150, top: 250, width: 300, height: 200 } as const;
export const LOGO_BOX = { left: 500, top: 40, width: 40, height: 40 } as const;

/** One page: a heading, a paragraph, a 300×200 pt chart picture, a caption, and a 40 pt logo in the corner. */
export const buildFigurePdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  page.drawText("Results", { x: 72, y: PAGE.height - 100, size: 16, font: regular });
  page.drawText("The chart below compares the four regions.", { x: 72, y: PAGE.height - 140, size: 11, font: regular });
  const chart = await doc.embedPng(drawChart(600, 400));
  page.drawImage(chart, {
    x: FIGURE_BOX.left,
    y: PAGE.height - FIGURE_BOX.top - FIGURE_BOX.height,
    width: FIGURE_BOX.width,
    height: FIGURE_BOX.height,
  });
  page.drawText("Figure 1: Orders by region.", { x: 150, y: PAGE.height - 475, size: 10, font: regular });
  const logo = await doc.embedPng(drawChart(80, 80));
  page.drawImage(logo, {
    x: LOGO_BOX.left,
    y: PAGE.height - LOGO_BOX.top - LOGO_BOX.height,
    width: LOGO_BOX.width,
    height: LOGO_BOX.height,
  });
  return doc.save();
};

const frac = (left: number, top: number, right: number, bottom: number): [number, number, number, number] => [
  left / PAGE.width,
  top / PAGE.height,
  right / PAGE.width,
  bottom / PAGE.height,
];

/** What a good vision model reports for each page of buildMixedPdf. */
export const mixedPdfAnswer = (pageNumber: number | null): string => {
  if (pageNumber === 1) {
    return visionAnswer([
      { type: "Title", text: TEXT_PAGE.title, bbox: frac(72, 80, 340, 102) },
      { type: "NarrativeText", text: TEXT_PAGE.paragraph, bbox: frac(72, 130, 540, 160) },
    ]);
  }
  if (pageNumber === 2) {
    const { left, top, colWidth, rowHeight } = TABLE_BOX;
    const [head = [], ...body] = TABLE_ROWS;
    return visionAnswer([
      { type: "FigureCaption", text: "Table 1: Orders and returns by region.", bbox: frac(72, 130, 300, 142) },
      {
        type: "Table",
        text: TABLE_ROWS.map((r) => r.join(" ")).join("\n"),
        html: `<table><tr>${head.map((c) => `<th>${c}</th>`).join("")}</tr>${body
          .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`)
          .join("")}</table>`,
        bbox: frac(left, top, left + 3 * colWidth, top + TABLE_ROWS.length * rowHeight),
      },
    ]);
  }
  return visionAnswer([
    { type: "Title", text: SCANNED_PAGE.title.text, bbox: SCANNED_PAGE.title.bbox },
    ...SCANNED_PAGE.lines.map((l) => ({ type: "NarrativeText", text: l.text, bbox: l.bbox })),
  ]);
};
