import type JSZip from "jszip";
import {
  attr,
  childrenOf,
  findAll,
  findFirst,
  loadZip,
  readRelationships,
  readZipXml,
  textValue,
  type XmlNode,
} from "./xml";

/**
 * Charts of a workbook as text: a chart's title and, per series, its name and its cached points ("2019: 12"). The
 * figures a chart draws are otherwise invisible to search. Charts are found through each sheet's drawing
 * (sheet → drawing → chart relationships); the values are the ones Excel cached when it saved the file.
 */

export type ChartText = { title: string; text: string };

/** Points per series written out; a chart of thousands of points says what it is in its first ones. */
const MAX_POINTS = 50;
const MAX_CHARTS = 200;

/** The text directly inside an element (`<c:v>12</c:v>` → "12"). */
const childrenTexts = (node: XmlNode): string => childrenOf(node).map(textValue).join("");

/** Rich text of a title or series name: its `a:t` runs. */
const textsOf = (node: XmlNode | undefined): string => (node ? findAll([node], "a:t").map(childrenTexts).join("") : "");

/** Cached points of a reference (`c:strRef`/`c:numRef` → cache → `c:pt` → `c:v`), in index order. */
const cachedPoints = (node: XmlNode | undefined): string[] =>
  node
    ? findAll([node], "c:pt")
        .map((pt) => ({ idx: Number(attr(pt, "idx") ?? 0), v: childrenTexts(findFirst([pt], "c:v") ?? {}) }))
        .sort((a, b) => a.idx - b.idx)
        .map((p) => p.v)
    : [];

const chartText = (nodes: XmlNode[]): ChartText | null => {
  const chart = findFirst(nodes, "c:chart");
  if (!chart) return null;
  const title = textsOf(findFirst([chart], "c:title")).trim();
  const lines: string[] = [];
  for (const series of findAll([chart], "c:ser")) {
    const name = cachedPoints(findFirst([series], "c:tx"))[0] ?? textsOf(findFirst([series], "c:tx"));
    const categories = cachedPoints(findFirst([series], "c:cat") ?? findFirst([series], "c:xVal"));
    const values = cachedPoints(findFirst([series], "c:val") ?? findFirst([series], "c:yVal"));
    const points = values
      .slice(0, MAX_POINTS)
      .map((v, i) => (categories[i] !== undefined ? `${categories[i]}: ${v}` : v))
      .join(", ");
    const more = values.length > MAX_POINTS ? `, … (${values.length} points)` : "";
    lines.push(`${name || "Series"}: ${points}${more}`);
  }
  if (!title && lines.length === 0) return null;
  return { title, text: [title, ...lines].filter(Boolean).join("\n") };
};

const sheetPaths = async (zip: JSZip): Promise<Map<string, string>> => {
  const workbook = await readZipXml(zip, "xl/workbook.xml", "The workbook part");
  const rels = await readRelationships(zip, "xl/workbook.xml");
  const out = new Map<string, string>();
  for (const sheet of workbook ? findAll(workbook, "sheet") : []) {
    const name = attr(sheet, "name");
    const target = rels.get(attr(sheet, "r:id") ?? "")?.target;
    if (name && target) out.set(name, target);
  }
  return out;
};

/** Charts per sheet name, in drawing order. Parts that are missing or unreadable leave that chart out. */
export const readCharts = async (bytes: Uint8Array): Promise<Map<string, ChartText[]>> => {
  const zip = await loadZip(bytes, "xlsx");
  const out = new Map<string, ChartText[]>();
  if (!Object.keys(zip.files).some((f) => f.startsWith("xl/charts/"))) return out;
  let count = 0;
  for (const [name, sheetPath] of await sheetPaths(zip)) {
    for (const drawing of [...(await readRelationships(zip, sheetPath)).values()].filter((r) =>
      r.type.endsWith("/drawing"),
    )) {
      const drawingRels = await readRelationships(zip, drawing.target);
      const drawingXml = await readZipXml(zip, drawing.target, "A drawing part").catch(() => null);
      // Chart references in the drawing's order (`c:chart r:id`), so charts read top to bottom as placed.
      const ids = drawingXml ? findAll(drawingXml, "c:chart").map((c) => attr(c, "r:id") ?? "") : [];
      for (const id of ids) {
        const target = drawingRels.get(id)?.target;
        if (!target || count >= MAX_CHARTS) continue;
        const chart = await readZipXml(zip, target, "A chart part").catch(() => null);
        const text = chart ? chartText(chart) : null;
        if (!text) continue;
        count++;
        out.set(name, [...(out.get(name) ?? []), text]);
      }
    }
  }
  return out;
};
