import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { XMLParser } from "fast-xml-parser";
import type { Reference } from "@/server/parsing/quality";
import { adjacencyRelations, type GridCell } from "@/server/parsing/table-structure";
import { joinItemsSplitByPages, popplerItemTexts } from "./page-split-items";

/**
 * Reference outputs the quality bench scores against, each from outside Quarry: the document's own tags (a tagged
 * PDF's structure tree: headings, list items, table cells and the author's reading order), a peer's expected output
 * (pdfplumber's text comparisons, unstructured's element JSON, ICDAR 2013's table cells as tabula-java ships them),
 * and poppler's `pdftotext` for the words and numbers of a text layer.
 */

export type StructNode = { role?: string; type?: string; id?: string; children?: StructNode[] };

const HEADING_ROLES = /^(?:H[1-6]?|Title)$/;

/**
 * The document's tags are read with pdfjs, another engine than the one Quarry parses with (PDFium): a reference
 * read by the parser under test would share its mistakes.
 */
const openWithPdfjs = async (bytes: Uint8Array) => {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
};

/**
 * A node's text: its marked content in the tree's order, leaving out the subtrees tagged `skipRole` (one role or a
 * pattern of roles). A list item's text leaves out the lists nested in it ("2. Outer item" holding "a) Inner item"):
 * each nested item is an item of its own, and text counted in two items could never be matched by both, whatever a
 * parser makes of the list. A heading's text leaves out the footnotes tagged inside it (LaTeX's tagging nests a
 * footnote's `Note` in the heading that carries its mark): the note's text is set at the page's foot, not in the
 * heading.
 */
export const structText = (
  node: StructNode,
  byId: ReadonlyMap<string, string[]>,
  skipRole?: string | RegExp,
): string =>
  node.type === "content" && node.id
    ? (byId.get(node.id) ?? []).join("")
    : (node.children ?? [])
        .filter(
          (child) =>
            !skipRole || !(typeof skipRole === "string" ? child.role === skipRole : skipRole.test(child.role ?? "")),
        )
        .map((child) => structText(child, byId, skipRole))
        .join(" ");

/** Structure tree of the first `pages` pages: text per role, in the tree's (the author's reading) order. */
export const structTreeReference = async (bytes: Uint8Array, pages: number): Promise<Reference | null> => {
  const doc = await openWithPdfjs(bytes);
  try {
    const headings: string[] = [];
    const pageItems: string[][] = [];
    const tableCells: string[] = [];
    const codeBlocks: string[] = [];
    const furniture: string[] = [];
    const order: string[] = [];
    let tagged = false;
    for (let n = 1; n <= Math.min(pages, doc.numPages); n++) {
      const page = await doc.getPage(n);
      const tree = (await page.getStructTree()) as StructNode | null;
      if (!tree?.children?.length) continue;
      tagged = true;
      const content = await page.getTextContent({ includeMarkedContent: true });
      const byId = new Map<string, string[]>();
      const open: string[] = [];
      // Page furniture is marked content tagged Artifact (running heads, feet, page numbers), outside the tree.
      const tags: string[] = [];
      const artifacts: string[] = [];
      for (const item of content.items) {
        if ("type" in item && item.type === "beginMarkedContentProps") {
          open.push(typeof item.id === "string" ? item.id : "");
          tags.push((item as { tag?: string }).tag ?? "");
        } else if ("type" in item && item.type === "beginMarkedContent") {
          open.push("");
          tags.push((item as { tag?: string }).tag ?? "");
        } else if ("type" in item && item.type === "endMarkedContent") {
          open.pop();
          if (tags.pop() === "Artifact") artifacts.push("\n");
        } else if ("str" in item && tags.includes("Artifact")) artifacts.push(`${item.str} `);
        else if ("str" in item) {
          const id = open.findLast((x) => x !== "");
          if (!id) continue;
          const list = byId.get(id) ?? [];
          list.push(item.str);
          if (item.hasEOL) list.push(" ");
          byId.set(id, list);
        }
      }
      const textOf = (node: StructNode): string => structText(node, byId);
      const listItems: string[] = [];
      pageItems.push(listItems);
      const walk = (node: StructNode) => {
        const role = node.role ?? "";
        if (HEADING_ROLES.test(role)) headings.push(structText(node, byId, /^(?:Note|FENote)$/));
        else if (role === "LI") listItems.push(structText(node, byId, "L"));
        else if (role === "TD" || role === "TH") tableCells.push(textOf(node));
        else if (role === "Code") codeBlocks.push(textOf(node));
        if (node.type === "content") order.push(textOf(node));
        for (const child of node.children ?? []) walk(child);
      };
      walk(tree);
      furniture.push(...artifacts.join("").split("\n"));
    }
    if (!tagged) return null;
    const clean = (s: string) => s.replace(/\s+/g, " ").trim();
    return {
      headings: headings.map(clean).filter(Boolean),
      listItems: joinItemsSplitByPages(
        pageItems.map((items) => items.map(clean).filter(Boolean)),
        popplerItemTexts(bytes),
      ),
      tableCells: tableCells.map(clean).filter(Boolean),
      codeBlocks: codeBlocks.map(clean).filter(Boolean),
      furniture: furniture.map(clean).filter(Boolean),
      orderText: order.join(" "),
    };
  } finally {
    await doc.destroy();
  }
};

const TYPEWRITER_FONT = /mono|courier|consol|menlo|typewriter|fixed|\bcode\b|^cmtt|lmmono|inconsolata/i;

/**
 * Listings of an untagged PDF: runs of two or more lines set in a typewriter font, as pdfjs names the fonts (another
 * engine than Quarry's PDFium, and the font the author chose, not a layout guess). A word in a fixed-pitch font inside
 * a sentence is no listing.
 */
export const monospaceListings = async (bytes: Uint8Array, pages: number): Promise<string[]> => {
  const doc = await openWithPdfjs(bytes);
  try {
    const listings: string[] = [];
    for (let n = 1; n <= Math.min(pages, doc.numPages); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      await page.getOperatorList();
      const mono = new Set(
        Object.keys(content.styles).filter((key) => {
          const font = page.commonObjs.has(key) ? (page.commonObjs.get(key) as { name?: string } | null) : null;
          return TYPEWRITER_FONT.test((font?.name ?? "").replace(/^[A-Z]{6}\+/, ""));
        }),
      );
      let lines: string[] = [];
      let line = "";
      const flush = () => {
        if (line.trim()) lines.push(line.trim());
        line = "";
        if (lines.length >= 2) listings.push(lines.join("\n"));
        lines = [];
      };
      for (const item of content.items) {
        if (!("str" in item)) continue;
        if (!item.str.trim() && !item.hasEOL) {
          line += item.str;
          continue;
        }
        if (item.str.trim() && !mono.has(item.fontName)) {
          flush();
          continue;
        }
        line += item.str;
        if (item.hasEOL) {
          if (line.trim()) lines.push(line.trim());
          line = "";
        }
      }
      flush();
    }
    return listings;
  } finally {
    await doc.destroy();
  }
};

/** Words of the text layer as poppler reads them (reading order of `pdftotext` without -layout). */
export const pdftotextReference = (file: string, pages: number): string | null => {
  const out = spawnSync("pdftotext", ["-l", String(pages), "-enc", "UTF-8", file, "-"], { maxBuffer: 64 << 20 });
  return out.status === 0 ? out.stdout.toString("utf8") : null;
};

type IcdarCell = {
  content?: unknown[];
  "start-row"?: string;
  "start-col"?: string;
  "end-row"?: string;
  "end-col"?: string;
};
type IcdarXml = { document?: { table?: { region?: { page?: string; cell?: IcdarCell[] }[] }[] }[] };

/**
 * ICDAR 2013 table-structure ground truth (`-str.xml`) of the tables on the first `pages` pages: the cell texts, and
 * the cells' adjacency relations (table-structure.ts) for the structure score.
 */
export const icdarTables = (file: string, pages: number): { cells: string[]; relations: string[] } => {
  const xml = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: () => true,
    parseTagValue: false,
  }).parse(readFileSync(file, "utf8")) as IcdarXml;
  const cells: string[] = [];
  const relations: string[] = [];
  for (const table of xml.document?.[0]?.table ?? []) {
    for (const region of table.region ?? []) {
      if (Number(region.page) > pages) continue;
      const grid: GridCell[] = [];
      for (const cell of region.cell ?? []) {
        const content = cell.content?.[0];
        const text = typeof content === "string" ? content : typeof content === "number" ? String(content) : "";
        const clean = text.replace(/\s+/g, " ").trim();
        if (clean) cells.push(clean);
        const row = Number(cell["start-row"] ?? 0);
        const col = Number(cell["start-col"] ?? 0);
        const rowSpan = Number(cell["end-row"] ?? row) - row + 1;
        const colSpan = Number(cell["end-col"] ?? col) - col + 1;
        grid.push({ row, col, rowSpan, colSpan, text: clean });
      }
      relations.push(...adjacencyRelations(grid));
    }
  }
  return { cells, relations };
};

type PeerElement = { type?: string; text?: string; metadata?: { page_number?: number; text_as_html?: string } };

/** unstructured's expected element list: text in order, and Title / ListItem / Table cells where it typed them. */
export const unstructuredReference = (file: string, pages: number): Reference => {
  const elements = (JSON.parse(readFileSync(file, "utf8")) as PeerElement[]).filter(
    (e) => (e.metadata?.page_number ?? 1) <= pages,
  );
  const of = (type: string) => elements.filter((e) => e.type === type).map((e) => e.text ?? "");
  const cells = elements
    .filter((e) => e.type === "Table")
    .flatMap((e) =>
      [...(e.metadata?.text_as_html ?? "").matchAll(/<t[dh]\b[^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((m) =>
        (m[1] ?? "").replace(/<[^>]+>/g, "").trim(),
      ),
    )
    .filter(Boolean);
  const text = elements.map((e) => e.text ?? "").join("\n");
  return {
    text,
    headings: of("Title"),
    listItems: of("ListItem"),
    codeBlocks: of("CodeSnippet"),
    furniture: [...of("Header"), ...of("Footer"), ...of("PageNumber")],
    ...(cells.length ? { tableCells: cells } : {}),
  };
};
