import { htmlCells } from "../quality";
import type { BoundingBox, ParsedElement } from "../types";

/**
 * A table continued across a page break is one table: when a page's last content element is a table and the next
 * page's first is a table with as many columns, the second's rows are appended to the first (its header dropped
 * when it repeats the first's) and `metadata.page_numbers` lists both pages.
 */

const FURNITURE = new Set(["Header", "Footer", "PageNumber", "Image"]);

const columnsOf = (table: ParsedElement): number => {
  const first = /<tr\b[^>]*>([\s\S]*?)<\/tr>/i.exec(table.html ?? "")?.[1] ?? "";
  return [...first.matchAll(/<t[dh]\b([^>]*)>/gi)].reduce(
    (n, m) => n + Number(/colspan="(\d+)"/.exec(m[1] ?? "")?.[1] ?? 1),
    0,
  );
};

const rowsOf = (html: string) => [...html.matchAll(/<tr\b[^>]*>[\s\S]*?<\/tr>/gi)].map((m) => m[0]);
const headerRowsOf = (html: string) => rowsOf(/<thead>([\s\S]*?)<\/thead>/i.exec(html)?.[1] ?? "");

const join = (a: ParsedElement, b: ParsedElement): ParsedElement => {
  const aHtml = a.html ?? "";
  const bHtml = b.html ?? "";
  const aHead = headerRowsOf(aHtml);
  const bHead = headerRowsOf(bHtml);
  const repeated = bHead.length > 0 && htmlCells(bHead.join("")).join("|") === htmlCells(aHead.join("")).join("|");
  const bRows = rowsOf(bHtml)
    .slice(repeated ? bHead.length : 0)
    .map((r) => r.replace(/<(\/?)th\b/gi, "<$1td"));
  const aRows = rowsOf(aHtml).slice(aHead.length);
  const html = `<table>${aHead.length ? `<thead>${aHead.join("")}</thead>` : ""}<tbody>${[...aRows, ...bRows].join("")}</tbody></table>`;
  const bText = repeated
    ? b.text
        .split("\n")
        .slice(aHead.length ? 1 : 0)
        .join("\n")
    : b.text;
  const pages = (a.metadata?.page_numbers as number[] | undefined) ?? [a.pageNumber ?? 0];
  return {
    ...a,
    text: [a.text, bText].filter(Boolean).join("\n"),
    html,
    metadata: {
      ...a.metadata,
      ...(typeof a.metadata?.table_rows === "number" ? { table_rows: rowsOf(html).length } : {}),
      page_numbers: [...pages, b.pageNumber ?? 0],
    },
  };
};

/**
 * A table broken at the foot of a page's column and continued at the head of the next column: the first part is the
 * lowest element of its column, the second the highest of its own, to its right, with as many columns. The ruled
 * parts are placed in the flow by position, so the first part lands at the page's end; the joined table takes the
 * second part's place, right before the next column's text.
 */
const TOLERANCE = 2;
const right = (b: BoundingBox) => b.left + b.width;
const across = (a: BoundingBox, b: BoundingBox) => Math.min(right(a), right(b)) - Math.max(a.left, b.left) > 0;

const joinAcrossColumns = (elements: ParsedElement[]): ParsedElement[] => {
  const out = [...elements];
  const onPage = (e: ParsedElement) => out.filter((o) => o !== e && o.pageNumber === e.pageNumber && o.boundingBox);
  for (const second of elements) {
    const b = second.boundingBox;
    if (second.type !== "Table" || !b || columnsOf(second) < 2) continue;
    const others = onPage(second);
    if (others.some((o) => o.boundingBox && across(o.boundingBox, b) && o.boundingBox.top < b.top)) continue;
    const first = others.find((o) => {
      const a = o.boundingBox;
      if (o.type !== "Table" || !a || right(a) > b.left + TOLERANCE || a.top <= b.top) return false;
      if (columnsOf(o) !== columnsOf(second)) return false;
      const below = (x: ParsedElement) =>
        x !== o && x.boundingBox && across(x.boundingBox, a) && x.boundingBox.top > a.top;
      return !others.some((x) => below(x) && !FURNITURE.has(x.type));
    });
    if (!first) continue;
    const at = out.indexOf(second);
    out[at] = join(first, second);
    out.splice(out.indexOf(first), 1);
  }
  return out;
};

const lastPage = (e: ParsedElement) => (e.metadata?.page_numbers as number[] | undefined)?.at(-1) ?? e.pageNumber ?? 0;

export const joinContinuedTables = (elements: ParsedElement[]): ParsedElement[] => {
  const out: ParsedElement[] = [];
  let last = -1;
  for (const e of joinAcrossColumns(elements)) {
    if (FURNITURE.has(e.type)) {
      out.push(e);
      continue;
    }
    const previous = out[last];
    const continues =
      previous?.type === "Table" &&
      e.type === "Table" &&
      e.pageNumber === lastPage(previous) + 1 &&
      columnsOf(e) >= 2 &&
      columnsOf(previous) === columnsOf(e);
    if (previous && continues) {
      out[last] = join(previous, e);
      continue;
    }
    last = out.length;
    out.push(e);
  }
  return out;
};
