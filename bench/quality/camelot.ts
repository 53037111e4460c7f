import { readFileSync } from "node:fs";
import { adjacencyRelations, type GridCell } from "@/server/parsing/table-structure";

/**
 * camelot's expected tables (its `tests/data.py`): module-level Python lists of rows of strings, `name = [...]`, or
 * an alias `name = other[a:b]`. Read with a small literal reader (strings, implicit concatenation, nested lists,
 * comments), never executed. A later assignment to the same name wins, as in Python.
 */

type Literal = string | Literal[];

const readLiteral = (src: string, start: number): { value: Literal; end: number } => {
  let i = start;
  const skip = () => {
    for (;;) {
      while (i < src.length && /[\s,]/.test(src[i] ?? "")) i++;
      if (src[i] !== "#") return;
      while (i < src.length && src[i] !== "\n") i++;
    }
  };
  const readString = (): string => {
    const quote = src[i];
    let j = i + 1;
    let body = "";
    while (j < src.length && src[j] !== quote) {
      body += src[j] === "\\" ? src.slice(j, j + 2) : src[j];
      j += src[j] === "\\" ? 2 : 1;
    }
    i = j + 1;
    const json = body
      .replace(/\\'/g, "'")
      .replace(/\\x([0-9a-fA-F]{2})/g, "\\u00$1")
      .replace(/(?<!\\)"/g, '\\"');
    return JSON.parse(`"${json}"`) as string;
  };
  const read = (): Literal => {
    skip();
    if (src[i] === "[") {
      i++;
      const items: Literal[] = [];
      for (skip(); src[i] !== "]"; skip()) items.push(read());
      i++;
      return items;
    }
    let text = "";
    for (skip(); src[i] === '"' || src[i] === "'";) {
      text += readString();
      while (/[ \t\r\n]/.test(src[i] ?? "")) i++;
    }
    return text;
  };
  const value = read();
  return { value, end: i };
};

/** Every `name = …` list of data.py, by name. */
export const camelotData = (file: string): Map<string, Literal[]> => {
  const src = readFileSync(file, "utf8");
  const found = new Map<string, Literal[]>();
  for (const m of src.matchAll(/^(\w+) = (?:\[|(\w+)\[(-?\d*):(-?\d*)\])/gm)) {
    const [, name, alias, from, to] = m;
    if (!name) continue;
    if (alias) {
      const list = found.get(alias);
      if (list) found.set(name, list.slice(from ? Number(from) : 0, to ? Number(to) : undefined));
      continue;
    }
    const { value } = readLiteral(src, (m.index ?? 0) + m[0].length - 1);
    if (Array.isArray(value)) found.set(name, value);
  }
  return found;
};

/** Cells and adjacency relations of the named tables (each a full grid; an empty string is an empty cell). */
export const camelotTables = (file: string, names: readonly string[]): { cells: string[]; relations: string[] } => {
  const data = camelotData(file);
  const cells: string[] = [];
  const relations: string[] = [];
  for (const name of names) {
    const rows = data.get(name);
    if (!rows) throw new Error(`camelot data.py has no ${name}`);
    const grid: GridCell[] = [];
    rows.forEach((row, r) =>
      (Array.isArray(row) ? row : [row]).forEach((value, col) => {
        const text = (typeof value === "string" ? value : "").replace(/\s+/g, " ").trim();
        if (text) cells.push(text);
        grid.push({ row: r, col, rowSpan: 1, colSpan: 1, text });
      }),
    );
    relations.push(...adjacencyRelations(grid));
  }
  return { cells, relations };
};
