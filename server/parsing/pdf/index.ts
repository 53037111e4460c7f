import { describeFailure } from "../failure";
import type { ParsedElement, PartitionResult } from "../types";
import { buildBlocks } from "./blocks";
import { joinContinuedTables } from "./continued-tables";
import { joinCaptions } from "./captions";
import { joinChapterTitles } from "./chapter-titles";
import { classifyBlock, type Classified } from "./classify";
import { untypeRepeatedLetters } from "./list-letters";
import { untypeContentsEntries } from "./contents-entries";
import { dottedRunsAsItems, numberedHeadingRunsAsItems } from "./list-runs";
import { joinItemsAcrossBreaks } from "./list-breaks";
import { joinListingsAcrossPages } from "./listing-breaks";
import { withDrawnBullets } from "./drawn-bullets";
import { withFontBullets } from "./font-bullets";
import { findRepeatedMargins, type PageBlocks } from "./margins";
import { layoutPage, type Region } from "./layout";
import { authorBlocks } from "./authors";
import { splitRunIn } from "./run-in";
import { openPdf, readPage, type PdfDocument } from "./load";
import { figuresOf, graphicsReader, type GraphicsReader } from "./figures";
import { pagesNeedingOcr } from "./scan-pages";
import { judgeTextLayer, type TextLayerVerdict } from "./soundness";
import { hasImageObjects, mergeFigures } from "../place";
import { rowsToText } from "../table-html";
import { rightToLeftTable } from "./direction";
import { findGridTables, gridHtml, gridRows, type GridTable } from "./grid-tables";
import type { OutsideRow } from "./grid-outside";
import { computeStats } from "./stats";
import { withRotatedHeaders } from "./rotated-headers";
import { maxOf, type Block, type Box, type PageText, type RotatedText } from "./types";

/** Work bounds: a hostile or huge PDF must not hold a worker for hours. */
export const MAX_PDF_PAGES = 2000;
const TIME_BUDGET_MS = 5 * 60_000;
/** Reading pages' drawings for ruled tables stops after this long; later pages keep their text-aligned tables. */
const GRID_BUDGET_MS = 60_000;
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

/**
 * The text of each page (up to the page and time limits). With `graphicsOf`, each page's drawing is read too while
 * the page is open: loading a page parses its whole content stream, so a second pass over the pages for their
 * drawing would parse every page twice.
 */
const readPages = async (doc: PdfDocument, only?: ReadonlySet<number>, graphicsOf?: GraphicsReader) => {
  const warnings: string[] = [];
  const pages: PageText[] = [];
  const total = doc.pageCount;
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
      pages.push(await readPage({ doc, pageNumber }));
      // A drawing that cannot be read is met again, and handled, where it is used.
      await graphicsOf?.(pageNumber).catch(() => undefined);
    } catch (error) {
      warnings.push(`Page ${pageNumber} could not be read (${describeFailure(error)})`);
    }
  }
  return { pages, warnings, total };
};

/**
 * The text-layer parse, with each page's verdict on its text layer (soundness.ts) and, when asked for, the pages
 * that must be OCR'd (scan-pages.ts), for the methods that OCR.
 */
export type TextLayerParse = PartitionResult & { verdicts: Map<number, TextLayerVerdict>; scans?: number[] };

/**
 * The text layer of a PDF as elements. `pages` (1-based) limits the parse to some pages; repeated headers and
 * footers are still found across the pages given. `warnTextless` adds fast's warnings about pages that need OCR;
 * the methods that OCR those pages leave them out.
 */
export const parseTextLayer = async ({
  bytes,
  pages: only,
  warnTextless = true,
  rulings = "table-pages",
  figures = false,
  findScans = false,
}: {
  bytes: Uint8Array;
  pages?: readonly number[];
  warnTextless?: boolean;
  /**
   * Where to look for tables drawn as grids of ruling lines (reading a page's drawing costs about as much as its
   * text): on pages where the text already lines up as a table, on every page (accurate), or nowhere.
   */
  rulings?: "table-pages" | "all-pages" | "none";
  /** Cut the pictures of the pages out as Image elements, in reading order (when the file has any). */
  figures?: boolean;
  /** Name the pages that need OCR in `scans` (after the figures: their page drawings are read once for both). */
  findScans?: boolean;
}): Promise<TextLayerParse> => {
  // One open document for the text, the drawings, the figures and the scan check.
  const doc = await openPdf(bytes);
  try {
    const { graphicsOf, ...parsed } = await parseOpenPdf(doc, { only, warnTextless, rulings });
    let result: TextLayerParse = parsed;
    if (figures && hasImageObjects(bytes)) {
      const pictures = await figuresOf(doc, {
        pages: [...parsed.verdicts.keys()],
        warnings: parsed.warnings,
        graphicsOf,
      });
      result = { ...parsed, elements: mergeFigures(parsed.elements, pictures) };
    }
    return findScans ? { ...result, scans: await pagesNeedingOcr(parsed.verdicts, graphicsOf) } : result;
  } finally {
    doc.close();
  }
};

/** Pages whose text layer cannot be used (none, or garbled), named in warnings that point to the OCR methods. */
const warnAboutTextLayers = (
  pages: PageText[],
  verdicts: Map<number, ReturnType<typeof judgeTextLayer>>,
  warnings: string[],
) => {
  const textless = pages.filter((p) => verdicts.get(p.pageNumber)?.reason === "no-text").map((p) => p.pageNumber);
  const garbled = pages.filter((p) => verdicts.get(p.pageNumber)?.reason === "garbled").map((p) => p.pageNumber);
  for (const n of textless.slice(0, MAX_PAGE_WARNINGS)) {
    warnings.push(`Page ${n} has no text layer (scanned?); use method balanced or accurate for OCR`);
  }
  if (textless.length > MAX_PAGE_WARNINGS) {
    warnings.push(
      `${textless.length - MAX_PAGE_WARNINGS} more pages have no text layer (scanned?); use method balanced or accurate for OCR`,
    );
  }
  for (const n of garbled.slice(0, MAX_PAGE_WARNINGS)) {
    warnings.push(
      `The text layer of page ${n} looks garbled (a broken font encoding); use method balanced or accurate for OCR`,
    );
  }
};

type BlockedPage = PageBlocks & { regions: { column: number | null; blocks: PageBlocks["blocks"] }[] };

/** The elements of the pages' text flow, region by region, then each page's rotated text. */
const flowElements = (
  paged: BlockedPage[],
  stats: ReturnType<typeof computeStats>,
  repeated: ReturnType<typeof findRepeatedMargins>,
) => {
  const elements: ParsedElement[] = [];
  for (const { page, regions } of paged) {
    const pageLayout = { width: round(page.width), height: round(page.height) };
    const largest = maxOf(page.runs.map((r) => r.fontSize));
    for (const region of regions) {
      const authors = authorBlocks(region.blocks, stats, largest);
      const push = (block: Block, found: Classified | null) => {
        if (!found) return;
        const classified =
          found.type === "Title" && authors.has(block) ? { ...found, type: "UncategorizedText" as const } : found;
        const fontSize = maxOf(block.lines.map((l) => l.fontSize));
        elements.push({
          type: classified.type,
          text: classified.text,
          html: classified.html ?? null,
          pageNumber: page.pageNumber,
          boundingBox: toBoundingBox(block),
          pageLayout,
          metadata: {
            font_size: round(fontSize),
            ...(region.column !== null ? { column: region.column } : {}),
            ...classified.metadata,
          },
        });
      };
      for (const block of region.blocks) {
        const runIn = splitRunIn(block, stats);
        if (runIn) push(runIn.heading, { type: "Title", text: runIn.heading.lines[0]?.text ?? "" });
        push(runIn?.rest ?? block, classifyBlock({ block: runIn?.rest ?? block, page, stats, repeated }));
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
  return elements;
};

/** The ruled tables found, as Table elements of their pages. */
const gridElements = (grids: Map<number, GridTable[]>, pages: PageText[]): ParsedElement[] =>
  [...grids].flatMap(([pageNumber, list]) => {
    const page = pages.find((p) => p.pageNumber === pageNumber);
    const pageLayout = page ? { width: round(page.width), height: round(page.height) } : null;
    const beside = (row: OutsideRow): ParsedElement => ({
      type: row.kind === "caption" ? "FigureCaption" : "NarrativeText",
      text: row.text,
      pageNumber,
      boundingBox: toBoundingBox(row),
      pageLayout,
    });
    return list.map(rightToLeftTable).flatMap((table) => [
      ...(table.outside ?? []).filter((row) => row.kind === "caption").map(beside),
      {
        type: "Table" as const,
        text: rowsToText(gridRows(table)),
        html: gridHtml(table),
        pageNumber,
        boundingBox: toBoundingBox(table),
        pageLayout,
        metadata: { table_rows: table.rows, table_columns: table.cols, table_source: "ruling-lines" },
      },
      ...(table.outside ?? []).filter((row) => row.kind === "note").map(beside),
    ]);
  });

const parseOpenPdf = async (
  doc: PdfDocument,
  {
    only,
    warnTextless,
    rulings,
  }: { only?: readonly number[]; warnTextless: boolean; rulings: "table-pages" | "all-pages" | "none" },
): Promise<TextLayerParse & { graphicsOf: GraphicsReader }> => {
  const graphicsOf = graphicsReader(doc);
  const read = await readPages(doc, only ? new Set(only) : undefined, rulings === "none" ? undefined : graphicsOf);
  const { warnings, total } = read;
  // Turned column headings join their tables' header rows before the pages are laid out.
  const typed = read.pages.map(withRotatedHeaders).map((page) => ({ ...page, runs: withFontBullets(page.runs) }));
  const pages = rulings === "none" ? typed : await withDrawnBulletsOf(typed, graphicsOf);
  const verdicts = new Map(pages.map((p) => [p.pageNumber, judgeTextLayer(p)]));

  if (warnTextless) warnAboutTextLayers(pages, verdicts, warnings);

  const laidOut: { page: PageText; regions: Region[] }[] = pages.map((page) => ({
    page,
    regions: layoutPage({ runs: page.runs, pageHeight: page.height }),
  }));
  const stats = computeStats({
    runs: pages.flatMap((p) => p.runs),
    lineGroups: laidOut.flatMap((p) => p.regions.map((r) => r.lines)),
  });
  const toBlocks = ({ page, regions }: { page: PageText; regions: Region[] }) => {
    const withBlocks = regions.map((r) => ({ column: r.column, blocks: buildBlocks(r.lines, stats) }));
    return { page, regions: withBlocks, blocks: withBlocks.flatMap((r) => r.blocks) };
  };
  let paged: BlockedPage[] = laidOut.map(toBlocks);

  // Ruled tables take their text out of the page's flow; the page is laid out again without it.
  const grids = new Map<number, GridTable[]>();
  if (rulings !== "none") {
    // A page whose text lines up in no table may still hold a small ruled one (two rows of two cells): its grids
    // count there only when their cells are short, as a data table's are (a page laid out in a ruled grid is not).
    const candidates = paged
      .filter((p) => verdicts.get(p.page.pageNumber)?.sound)
      .map((p) => ({
        ...p.page,
        shortCellsOnly: rulings !== "all-pages" && !p.blocks.some((b) => b.kind === "table"),
      }));
    const found = await readGridTables(graphicsOf, candidates, warnings);
    paged = paged.map((entry) => {
      const tables = found.get(entry.page.pageNumber);
      if (!tables?.tables.length) return entry;
      grids.set(entry.page.pageNumber, tables.tables);
      const page = {
        ...entry.page,
        runs: entry.page.runs.filter((r) => !tables.takenRuns.has(r)),
        rotated: entry.page.rotated.filter((r) => !tables.takenRotated.has(r)),
      };
      return toBlocks({ page, regions: layoutPage({ runs: page.runs, pageHeight: page.height }) });
    });
  }
  const repeated = findRepeatedMargins(paged);

  const elements = joinCaptions(
    joinChapterTitles(
      joinListingsAcrossPages(
        joinItemsAcrossBreaks(
          untypeContentsEntries(
            dottedRunsAsItems(numberedHeadingRunsAsItems(untypeRepeatedLetters(flowElements(paged, stats, repeated)))),
          ),
        ),
      ),
    ),
  );
  const tables = gridElements(grids, pages);
  const merged = joinContinuedTables(mergeFigures(elements, tables));
  return { elements: merged, totalPages: total, warnings, verdicts, graphicsOf };
};

/** Each page's runs with the bullets its drawing paints as shapes (drawn-bullets.ts); a drawing that cannot be read
 * adds none. */
const withDrawnBulletsOf = async (pages: PageText[], graphicsOf: GraphicsReader): Promise<PageText[]> => {
  const started = Date.now();
  const out: PageText[] = [];
  for (const page of pages) {
    if (Date.now() - started > GRID_BUDGET_MS) {
      out.push(page);
      continue;
    }
    try {
      const { marks } = await graphicsOf(page.pageNumber);
      out.push(marks.length ? { ...page, runs: withDrawnBullets(page.runs, marks) } : page);
    } catch {
      out.push(page);
    }
  }
  return out;
};

/** Ruled tables of the given pages, from their drawing; a page whose drawing cannot be read keeps its text flow. */
const readGridTables = async (
  graphicsOf: GraphicsReader,
  pages: (PageText & { shortCellsOnly: boolean })[],
  warnings: string[],
) => {
  const found = new Map<number, ReturnType<typeof findGridTables>>();
  const started = Date.now();
  for (const text of pages) {
    if (Date.now() - started > GRID_BUDGET_MS) {
      warnings.push(`Ruled tables were looked for up to page ${text.pageNumber - 1}: the time limit was reached`);
      break;
    }
    try {
      const graphics = await graphicsOf(text.pageNumber);
      const tables = findGridTables({
        runs: text.runs,
        rotated: text.rotated,
        horizontal: graphics.horizontalLines,
        vertical: graphics.verticalLines,
        shortCellsOnly: text.shortCellsOnly,
      });
      if (tables.tables.length > 0) found.set(text.pageNumber, tables);
    } catch {
      // The drawing is a hint; without it the page's tables come from the text's alignment.
    }
  }
  return found;
};

/** The `fast` method: the text layer and the figures, never OCR. */
export const partitionPdf = async (input: {
  bytes: Uint8Array;
  pages?: readonly number[];
}): Promise<PartitionResult> => {
  const { elements, totalPages, warnings } = await parseTextLayer({ ...input, figures: true });
  return { elements, totalPages, warnings };
};
