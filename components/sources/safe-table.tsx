"use client";

import { useMemo } from "react";
import { TableScroll } from "@/components/ui/table-scroll";

type Cell = { text: string; header: boolean; colSpan: number; rowSpan: number };

const span = (value: number) => (Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 1), 100) : 1);

/**
 * Reads the cells of the first <table> in `html`. The html comes from user documents, so it is never injected: an
 * inert DOMParser document (no scripts run, nothing loads) is walked and only cell text and spans are kept, which
 * React then renders as escaped text.
 */
const parseTable = (html: string): Cell[][] | null => {
  if (typeof DOMParser === "undefined") return null;
  const table = new DOMParser().parseFromString(html, "text/html").querySelector("table");
  if (!table) return null;
  const rows = Array.from(table.rows).map((row) =>
    Array.from(row.cells).map((cell) => ({
      text: (cell.textContent ?? "").trim(),
      header: cell.tagName === "TH" || row.parentElement?.tagName === "THEAD",
      colSpan: span(cell.colSpan),
      rowSpan: span(cell.rowSpan),
    })),
  );
  return rows.length > 0 ? rows : null;
};

export const SafeTable = ({ html, text, label }: { html: string | null; text: string; label: string }) => {
  const rows = useMemo(() => (html ? parseTable(html) : null), [html]);
  const plain = (
    <pre
      aria-label={label}
      tabIndex={0}
      className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-foreground"
    >
      {text}
    </pre>
  );
  if (!rows) return plain;
  return (
    <div className="space-y-2">
      <TableScroll label={`Scrollable ${label}`}>
        <table aria-label={label} className="min-w-full border-collapse text-sm">
          <tbody>
            {rows.map((cells, r) => (
              <tr key={r}>
                {cells.map((cell, c) => {
                  const Tag = cell.header ? "th" : "td";
                  return (
                    <Tag
                      key={c}
                      colSpan={cell.colSpan}
                      rowSpan={cell.rowSpan}
                      className={`border border-border px-2 py-1 text-left align-top ${cell.header ? "bg-muted font-medium" : ""}`}
                    >
                      {cell.text}
                    </Tag>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <details className="text-xs text-muted-foreground">
        <summary className="cursor-pointer select-none">Plain text</summary>
        <div className="mt-2">{plain}</div>
      </details>
    </div>
  );
};
