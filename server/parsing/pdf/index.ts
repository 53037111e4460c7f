import { errorMessage } from "@/server/errors";
import type { ParsedElement, PartitionResult } from "../types";
import { buildBlocks } from "./blocks";
import { classifyBlock, findRepeatedMargins, type PageBlocks } from "./classify";
import { layoutPage, type Region } from "./layout";
import { openPdf, readPage } from "./load";
import { computeStats } from "./stats";
import { maxOf, type Box, type PageText, type RotatedText } from "./types";

/** Work bounds: a hostile or huge PDF must not hold a worker for hours. */
export const MAX_PDF_PAGES = 2000;
const TIME_BUDGET_MS = 5 * 60_000;
/** Past this many, pages without a text layer are summarised in one warning. */
const MAX_PAGE_WARNINGS = 20;

const round = (n: number) => Math.round(n * 100) / 100;

const toBoundingBox = (box: Box) => ({
  left: round(box.left),
  top: round(box.top),
  width: round(box.right - box.left),
  height: round(box.bottom - box.top),
});

/**
 * Text at an angle (margin stamps), read after the page's main flow. Items drawn one after the other whose boxes
 * touch form one element; only the previous group is compared, so a page of rotated text stays linear.
 */
const groupRotated = (items: RotatedText[]): RotatedText[] => {
  const groups: RotatedText[] = [];
  for (const item of items) {
    const pad = item.fontSize * 0.5;
    const g = groups[groups.length - 1];
    const target =
      g &&
      item.left <= g.right + pad &&
      item.right >= g.left - pad &&
      item.top <= g.bottom + pad &&
      item.bottom >= g.top - pad
        ? g
        : undefined;
    if (!target) {
      groups.push({ ...item });
      continue;
    }
    target.text = `${target.text} ${item.text}`;
    target.left = Math.min(target.left, item.left);
    target.top = Math.min(target.top, item.top);
    target.right = Math.max(target.right, item.right);
    target.bottom = Math.max(target.bottom, item.bottom);
  }
  return groups;
};

const readPages = async (bytes: Uint8Array, only?: ReadonlySet<number>) => {
  const { pdfjs, doc } = await openPdf(bytes);
  const warnings: string[] = [];
  const pages: PageText[] = [];
  try {
    const total = doc.numPages;
    const limit = Math.min(total, MAX_PDF_PAGES);
    if (total > limit) warnings.push(`Only the first ${limit} of ${total} pages were parsed`);
    const started = Date.now();
    for (let pageNumber = 1; pageNumber <= limit; pageNumber++) {
      if (only && !only.has(pageNumber)) continue;
      if (Date.now() - started > TIME_BUDGET_MS) {
        warnings.push(`Stopped after page ${pageNumber - 1} of ${total}: the time limit for parsing was reached`);
        break;
      }
      try {
        pages.push(await readPage({ pdfjs, doc, pageNumber }));
      } catch (error) {
        warnings.push(`Page ${pageNumber} could not be read (${errorMessage(error)})`);
      }
    }
    return { pages, warnings, total };
  } finally {
    await doc.destroy();
  }
};

/**
 * The `fast` method: the text layer only, never OCR. `pages` (1-based) limits the parse to some pages, for `auto`,
 * which routes page by page; repeated headers and footers are still found across the pages given.
 */
export const partitionPdf = async ({
  bytes,
  pages: only,
}: {
  bytes: Uint8Array;
  pages?: readonly number[];
}): Promise<PartitionResult> => {
  const { pages, warnings, total } = await readPages(bytes, only ? new Set(only) : undefined);

  const textless = pages.filter((p) => p.runs.length === 0 && p.rotated.length === 0).map((p) => p.pageNumber);
  for (const n of textless.slice(0, MAX_PAGE_WARNINGS)) {
    warnings.push(`Page ${n} has no text layer (scanned?); use method balanced or accurate for OCR`);
  }
  if (textless.length > MAX_PAGE_WARNINGS) {
    warnings.push(
      `${textless.length - MAX_PAGE_WARNINGS} more pages have no text layer (scanned?); use method balanced or accurate for OCR`,
    );
  }

  const laidOut: { page: PageText; regions: Region[] }[] = pages.map((page) => ({
    page,
    regions: layoutPage({ runs: page.runs, pageHeight: page.height }),
  }));
  const stats = computeStats({
    runs: pages.flatMap((p) => p.runs),
    lineGroups: laidOut.flatMap((p) => p.regions.map((r) => r.lines)),
  });
  const paged: (PageBlocks & { regions: { column: number | null; blocks: PageBlocks["blocks"] }[] })[] = laidOut.map(
    ({ page, regions }) => {
      const withBlocks = regions.map((r) => ({ column: r.column, blocks: buildBlocks(r.lines, stats) }));
      return { page, regions: withBlocks, blocks: withBlocks.flatMap((r) => r.blocks) };
    },
  );
  const repeated = findRepeatedMargins(paged);

  const elements: ParsedElement[] = [];
  for (const { page, regions } of paged) {
    const pageLayout = { width: round(page.width), height: round(page.height) };
    for (const region of regions) {
      for (const block of region.blocks) {
        const classified = classifyBlock({ block, page, stats, repeated });
        if (!classified) continue;
        const fontSize = maxOf(block.lines.map((l) => l.fontSize));
        elements.push({
          type: classified.type,
          text: classified.text,
          html: classified.html ?? null,
          pageNumber: page.pageNumber,
          boundingBox: toBoundingBox(block),
          pageLayout,
          metadata: { font_size: round(fontSize), ...(region.column !== null ? { column: region.column } : {}) },
        });
      }
    }
    for (const rotated of groupRotated(page.rotated)) {
      elements.push({
        type: "UncategorizedText",
        text: rotated.text,
        pageNumber: page.pageNumber,
        boundingBox: toBoundingBox(rotated),
        pageLayout,
        metadata: { rotated: true },
      });
    }
  }
  return { elements, totalPages: total, warnings };
};
