import type { VisionModel } from "@/server/providers/vision/types";
import { methodDisplayName, type InternalMethod } from "./methods.schema";
import type { Parser, ParserInput, PartitionResult } from "./types";

/**
 * The formats with page images (PDF, images, Office through its PDF), where the method decides how pages are read.
 * Their modules are loaded on first use, as every parser's is (partition.ts says why).
 */

/**
 * What a method does with a document that has page images. Legacy names map to the method they stand for
 * (contract §3); `mai` (manuscripts) reads pages with the vision model when there is one, else with OCR, and says so.
 */
type PageMethod = "fast" | "balanced" | "accurate" | "agentic" | "auto";

const PAGE_METHOD: Record<InternalMethod, PageMethod> = {
  basic: "fast",
  hi_res: "balanced",
  yolox: "balanced",
  ocr: "balanced",
  hi_res_ft: "accurate",
  advanced: "accurate",
  graphorlm: "agentic",
  mai: "agentic",
  auto: "auto",
};

const pageMethodOf = (method: InternalMethod, vision: VisionModel | null | undefined): PageMethod => {
  const wanted = PAGE_METHOD[method];
  if (method === "mai" && !vision) return "balanced";
  return wanted;
};

/** What the PDF path needs of its input besides the bytes. */
type PdfParse = Pick<ParserInput, "method" | "skipPages" | "vision" | "timeBudgetMs">;

/** Every page of a single-method parse read with that method. */
const allPages = (result: PartitionResult, method: string): PartitionResult => ({
  ...result,
  pageMethods:
    result.pageMethods ??
    (result.totalPages
      ? Object.fromEntries(Array.from({ length: result.totalPages }, (_, i) => [i + 1, method]))
      : undefined),
});

const parsePdfBytes = async (original: Uint8Array, parse: PdfParse): Promise<PartitionResult> => {
  const { emptySkippedPages } = await import("./pdf/skip-pages");
  const skipped = await emptySkippedPages(original, parse.skipPages);
  const result = await parsePdfPages(skipped.bytes, parse);
  return skipped.warnings.length ? { ...result, warnings: [...skipped.warnings, ...result.warnings] } : result;
};

const parsePdfPages = async (
  bytes: Uint8Array,
  { method, vision, timeBudgetMs }: PdfParse,
): Promise<PartitionResult> => {
  const pageMethod = pageMethodOf(method, vision);
  switch (pageMethod) {
    case "fast":
      return allPages(await (await import("./pdf")).partitionPdf({ bytes }), "fast");
    case "balanced":
    case "accurate": {
      const { partitionPdfTextFirst } = await import("./pdf/text-first");
      const result = await partitionPdfTextFirst({ bytes, method: pageMethod, timeBudgetMs });
      if (method === "mai")
        result.warnings.push(
          "No vision model is configured (VISION_MODEL): mai read the pages as balanced does (text layer, OCR for scans)",
        );
      return allPages(result, pageMethod);
    }
    case "agentic": {
      const { partitionPdfAgentic } = await import("./pdf/agentic");
      return allPages(await partitionPdfAgentic({ bytes, vision, timeBudgetMs }), "agentic");
    }
    case "auto": {
      const { partitionPdfAuto } = await import("./pdf/auto");
      return partitionPdfAuto({ bytes, vision, timeBudgetMs });
    }
  }
};

export const parsePdf: Parser = ({ bytes, ...parse }) => parsePdfBytes(bytes, parse);

export const parseImage: Parser = async (input) => {
  const pageMethod = pageMethodOf(input.method, input.vision);
  if (pageMethod === "agentic") {
    const [{ decodeImage }, { partitionImageAgentic }] = await Promise.all([
      import("./images/decode"),
      import("./pdf/agentic"),
    ]);
    const { pages } = await decodeImage(input.bytes, input.fileType);
    return allPages(
      await partitionImageAgentic(pages, { vision: input.vision, timeBudgetMs: input.timeBudgetMs }),
      "agentic",
    );
  }
  const result = await (await import("./images")).partitionImage(input);
  return allPages(result, pageMethod === "fast" || input.method === "auto" ? "fast" : pageMethod);
};

/**
 * Office files parse from their structure with fast (and auto, which is for PDFs). The page-image methods read the
 * pages of the PDF LibreOffice makes of them: that is what OCR, table recovery and a vision model need.
 */
export const parseOffice: Parser = async (input) => {
  const { convertOfficeToPdf, partitionOffice } = await import("./office");
  if (input.method === "basic" || input.method === "auto") return partitionOffice(input);
  const converted = await convertOfficeToPdf(input.bytes, input.fileType);
  const result = await parsePdfBytes(converted, input);
  result.warnings.unshift(
    `Method '${methodDisplayName(input.method)}' read the pages of the PDF that LibreOffice made of this .${input.fileType} file`,
  );
  for (const element of result.elements) element.metadata = { ...element.metadata, converted_with: "libreoffice" };
  return result;
};
