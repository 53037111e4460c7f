/** Small HTML helpers shared by the parsers that build tables or read markup-bearing text. */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  euro: "€",
};

/** Markdown keeps entities as written; the plain text of an element should not. Unknown names stay as they are. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });

/** A real <table>: the first `headerRows` rows go in <thead> as <th>. Cells are plain text. */
export const rowsToHtml = ({ rows, headerRows = 1 }: { rows: string[][]; headerRows?: number }): string => {
  const row = (cells: string[], tag: "th" | "td") =>
    `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join("")}</tr>`;
  const head = rows.slice(0, headerRows);
  const body = rows.slice(headerRows);
  const thead = head.length > 0 ? `<thead>${head.map((r) => row(r, "th")).join("")}</thead>` : "";
  const tbody = body.length > 0 ? `<tbody>${body.map((r) => row(r, "td")).join("")}</tbody>` : "";
  return `<table>${thead}${tbody}</table>`;
};

/** Plain text of a table: one line per row, non-empty cells joined by a space (what search and embeddings see). */
export const rowsToText = (rows: string[][]): string =>
  rows
    .map((cells) =>
      cells
        .map((c) => c.trim())
        .filter((c) => c.length > 0)
        .join(" "),
    )
    .filter((line) => line.length > 0)
    .join("\n");
