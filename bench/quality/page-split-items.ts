import { spawnSync } from "node:child_process";
import { compactText } from "@/server/parsing/table-structure";

/**
 * pdfjs gives a tagged PDF's structure tree one page at a time, so a list item the author tagged once but set over a
 * page break comes back as two items, its head at the foot of one page and its tail at the top of the next. A
 * parser that keeps the item whole would then be scored wrong twice. poppler's `pdfinfo -struct-text` prints the
 * document's tree once, whole: it tells which page-split pieces are one item.
 */

type Open = { indent: number; role: string; item: number };

/** The open element a line at `indent` belongs to, closing the ones it is not inside. */
const ownerAt = (open: Open[], indent: number): Open | undefined => {
  while ((open.at(-1)?.indent ?? -1) >= indent) open.pop();
  return open.findLast((node) => node.role === "LI" || node.role === "L");
};

/**
 * Each LI's own text in `pdfinfo -struct-text` output (an element per line, "LI (block)", its attributes and its
 * quoted text lines indented under it), leaving out the lists nested in it as the page-by-page reading does.
 */
export const wholeItemTexts = (structText: string): string[] => {
  const items: string[] = [];
  const open: Open[] = [];
  for (const line of structText.split("\n")) {
    const body = line.trim();
    if (!body || body.startsWith("/")) continue;
    const indent = line.length - line.trimStart().length;
    const owner = ownerAt(open, indent);
    const quoted = /^"(.*)"$/.exec(body);
    if (quoted) {
      if (owner?.role === "LI") items[owner.item] = `${items[owner.item] ?? ""}${quoted[1] ?? ""}`;
    } else {
      const role = body.split(/[\s:]/)[0] ?? "";
      open.push({ indent, role, item: role === "LI" ? items.push("") - 1 : -1 });
    }
  }
  return items;
};

/**
 * The items of each page in order, the last item of a page joined with the first of the next when the whole tree
 * holds the two as one item and the first alone is no item of it.
 */
export const joinItemsSplitByPages = (pages: readonly string[][], whole: readonly string[]): string[] => {
  const known = new Set(whole.map(compactText));
  const out: string[] = [];
  for (const items of pages) {
    const [first, ...rest] = items;
    if (first === undefined) continue;
    const head = out.at(-1);
    if (head !== undefined && !known.has(compactText(head)) && known.has(compactText(head + first))) {
      out[out.length - 1] = `${head} ${first}`;
    } else out.push(first);
    out.push(...rest);
  }
  return out;
};

/** Own texts of the document's list items as poppler reads its whole structure tree; none when it cannot. */
export const popplerItemTexts = (bytes: Uint8Array): string[] => {
  const run = spawnSync("pdfinfo", ["-struct-text", "-"], { input: bytes, maxBuffer: 64 << 20 });
  return run.status === 0 ? wholeItemTexts(run.stdout.toString("utf8")) : [];
};
