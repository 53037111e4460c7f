import { htmlCells } from "../quality";
import type { ParsedElement } from "../types";

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

const lastPage = (e: ParsedElement) => (e.metadata?.page_numbers as number[] | undefined)?.at(-1) ?? e.pageNumber ?? 0;

export const joinContinuedTables = (elements: ParsedElement[]): ParsedElement[] => {
  const out: ParsedElement[] = [];
  let last = -1;
  for (const e of elements) {
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
