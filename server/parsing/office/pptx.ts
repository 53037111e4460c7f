import type JSZip from "jszip";
import { AppError } from "@/server/errors";
import { isMonospaceFont } from "../monospace";
import { rowsToText } from "../table-html";
import type { BoundingBox, ElementType, PageLayout, ParsedElement, PartitionResult } from "../types";
import {
  cellsToHtml,
  classifyDocParagraph,
  cleanText,
  collapse,
  ImageBudget,
  isJunkText,
  rasterMime,
  rowsToMarkdown,
  safeHref,
  type Span,
  spansToHtml,
  spansToMarkdown,
  type TableCell,
} from "./common";
import {
  asUnprocessable,
  attr,
  child,
  childrenNamed,
  childrenOf,
  findAll,
  findFirst,
  loadZip,
  nameOf,
  path,
  readRelationships,
  readZipBytes,
  readZipXml,
  textValue,
  type Relationship,
  type XmlNode,
} from "./xml";
import { checkOfficeZip } from "./zip-limits";

/**
 * PPTX: one page per slide, coordinates in points (1 pt = 12,700 EMU). Shapes are read in the order a person
 * reads a slide: the title first, then top to bottom and, within a band, left to right. Placeholders without a
 * position of their own take it from the slide layout or master, as PowerPoint does; bullets are inherited the same
 * way (a body placeholder's paragraphs are bulleted by the master unless they say otherwise). Speaker notes become
 * NarrativeText elements with metadata.notes = true on the slide's page.
 */

const EMU_PER_POINT = 12_700;
const MAX_SLIDES = 2000;
/** Placeholders that repeat on every slide (date, slide number) carry nothing worth indexing. */
const SKIPPED_PLACEHOLDERS = new Set(["dt", "sldNum", "sldImg", "hdr"]);

type Box = { x: number; y: number; w: number; h: number };
type Transform = (box: Box) => Box;

const identity: Transform = (b) => b;

const num = (value: string | undefined): number => {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
};

const readXfrm = (xfrm: XmlNode | undefined): Box | null => {
  const off = child(xfrm, "a:off");
  const ext = child(xfrm, "a:ext");
  if (!off || !ext) return null;
  return { x: num(attr(off, "x")), y: num(attr(off, "y")), w: num(attr(ext, "cx")), h: num(attr(ext, "cy")) };
};

/** Child coordinates of a group map onto the group's own box (chOff/chExt → off/ext). */
const groupTransform = (xfrm: XmlNode | undefined, outer: Transform): Transform => {
  const box = readXfrm(xfrm);
  const chOff = child(xfrm, "a:chOff");
  const chExt = child(xfrm, "a:chExt");
  if (!box || !chOff || !chExt) return outer;
  const cx = num(attr(chOff, "x"));
  const cy = num(attr(chOff, "y"));
  const sx = num(attr(chExt, "cx")) > 0 ? box.w / num(attr(chExt, "cx")) : 1;
  const sy = num(attr(chExt, "cy")) > 0 ? box.h / num(attr(chExt, "cy")) : 1;
  return (b) => outer({ x: box.x + (b.x - cx) * sx, y: box.y + (b.y - cy) * sy, w: b.w * sx, h: b.h * sy });
};

type Placeholder = { type: string; idx: string | undefined };

const placeholderOf = (shape: XmlNode): Placeholder | null => {
  const nv = childrenOf(shape).find((c) => nameOf(c).startsWith("p:nv"));
  const ph = path(nv, "p:nvPr", "p:ph");
  if (!ph) return null;
  return { type: attr(ph, "type") ?? "obj", idx: attr(ph, "idx") };
};

/** What a layout or master says about its placeholders: position and list styles. */
type Template = {
  byIdx: Map<string, { box: Box | null; lstStyle: XmlNode | undefined }>;
  byType: Map<string, { box: Box | null; lstStyle: XmlNode | undefined }>;
  txStyles?: XmlNode;
  rels: Map<string, Relationship>;
};

const normaliseType = (type: string) => (type === "obj" ? "body" : type === "ctrTitle" ? "title" : type);

const loadTemplate = async (zip: JSZip, partPath: string): Promise<Template> => {
  const nodes = (await readZipXml(zip, partPath, `The part ${partPath}`)) ?? [];
  const template: Template = { byIdx: new Map(), byType: new Map(), rels: await readRelationships(zip, partPath) };
  for (const sp of findAll(nodes, "p:sp")) {
    const ph = placeholderOf(sp);
    if (!ph) continue;
    const info = { box: readXfrm(path(sp, "p:spPr", "a:xfrm")), lstStyle: path(sp, "p:txBody", "a:lstStyle") };
    if (ph.idx !== undefined && !template.byIdx.has(ph.idx)) template.byIdx.set(ph.idx, info);
    const type = normaliseType(ph.type);
    if (!template.byType.has(type)) template.byType.set(type, info);
  }
  template.txStyles = findFirst(nodes, "p:txStyles");
  return template;
};

type SlideContext = {
  zip: JSZip;
  rels: Map<string, Relationship>;
  layout: Template | null;
  master: Template | null;
  budget: ImageBudget;
};

/** Something on a slide that becomes one or more elements. */
type Item = { box: Box | null; title: boolean; elements: Omit<ParsedElement, "pageNumber">[] };

const BULLET_ON = new Set(["a:buChar", "a:buAutoNum", "a:buBlip"]);

/** Whether paragraph properties decide the bullet: true/false, or undefined to look further up the chain. */
const bulletSetting = (pPr: XmlNode | undefined): boolean | undefined => {
  for (const c of pPr ? childrenOf(pPr) : []) {
    const name = nameOf(c);
    if (name === "a:buNone") return false;
    if (BULLET_ON.has(name)) return true;
  }
  return undefined;
};

const paragraphSpans = (p: XmlNode, rels: Map<string, Relationship>): Span[] => {
  const spans: Span[] = [];
  for (const c of childrenOf(p)) {
    const name = nameOf(c);
    if (name === "a:br") spans.push({ text: "\n" });
    else if (name === "a:r" || name === "a:fld") {
      if (name === "a:fld" && attr(c, "type") === "slidenum") continue;
      const rPr = child(c, "a:rPr");
      const link = attr(child(rPr, "a:hlinkClick"), "r:id");
      const rel = link ? rels.get(link) : undefined;
      const text = childrenNamed(c, "a:t")
        .map((t) => childrenOf(t).map(textValue).join(""))
        .join("");
      spans.push({
        text,
        bold: attr(rPr, "b") === "1" || attr(rPr, "b") === "true",
        italic: attr(rPr, "i") === "1" || attr(rPr, "i") === "true",
        href: rel?.external ? safeHref(rel.target) : null,
      });
    }
  }
  return spans;
};

/**
 * Whether every text run of a paragraph is set in a fixed-pitch face, by its own typeface or else by the level's
 * default in the shape's own list style: code typed onto a slide. Theme fonts ("+mn-lt") and the master's styles are
 * the deck's own face, so a deck set wholly in a fixed-pitch theme has no code by font.
 */
const inFixedPitch = (p: XmlNode, level: number, shapeStyle: XmlNode | undefined) => {
  const face = (rPr: XmlNode | undefined) => attr(child(rPr, "a:latin"), "typeface");
  const fallback = face(child(child(shapeStyle, `a:lvl${level + 1}pPr`), "a:defRPr"));
  const runs = childrenNamed(p, "a:r").filter((r) =>
    childrenNamed(r, "a:t").some((t) => childrenOf(t).map(textValue).join("").trim()),
  );
  return (
    runs.length > 0 &&
    runs.every((r) => {
      const typeface = face(child(r, "a:rPr")) ?? fallback;
      return typeface !== undefined && isMonospaceFont(typeface);
    })
  );
};

/** The paragraphs of a text body with their level and whether they carry a bullet. */
const textParagraphs = (
  txBody: XmlNode | undefined,
  rels: Map<string, Relationship>,
  lstChain: (XmlNode | undefined)[],
) =>
  childrenNamed(txBody, "a:p").map((p) => {
    const pPr = child(p, "a:pPr");
    const level = Math.min(Math.max(Math.trunc(num(attr(pPr, "lvl"))), 0), 8);
    let bullet = bulletSetting(pPr);
    for (const lst of lstChain) {
      if (bullet !== undefined) break;
      bullet = bulletSetting(child(lst, `a:lvl${level + 1}pPr`));
    }
    const spans = paragraphSpans(p, rels);
    const raw = spans.map((s) => s.text).join("");
    const code = inFixedPitch(p, level, lstChain[0]);
    return { spans, raw, text: cleanText(raw), level, bullet: bullet ?? false, code };
  });

const textShapeItems = (shape: XmlNode, box: Box | null, ph: Placeholder | null, ctx: SlideContext): Item | null => {
  const txBody = child(shape, "p:txBody");
  if (!txBody) return null;
  const type = ph ? normaliseType(ph.type) : null;
  const fromLayout = ph
    ? ((ph.idx !== undefined ? ctx.layout?.byIdx.get(ph.idx) : undefined) ?? ctx.layout?.byType.get(type ?? ""))
    : undefined;
  const fromMaster = type ? ctx.master?.byType.get(type) : undefined;
  const masterStyle =
    type === "title"
      ? child(ctx.master?.txStyles, "p:titleStyle")
      : type
        ? child(ctx.master?.txStyles, "p:bodyStyle")
        : child(ctx.master?.txStyles, "p:otherStyle");
  const chain = [child(txBody, "a:lstStyle"), fromLayout?.lstStyle, fromMaster?.lstStyle, masterStyle];
  const all = textParagraphs(txBody, ctx.rels, chain);
  const paragraphs = all.filter((p) => p.text && !isJunkText(p.text));
  if (paragraphs.length === 0) return null;
  const isTitle = type === "title";
  if (isTitle) {
    const spans = paragraphs.flatMap((p, i) => (i > 0 ? [{ text: " " }, ...p.spans] : p.spans));
    const text = collapse(paragraphs.map((p) => p.text).join(" "));
    const markdown = `# ${spansToMarkdown(spans.map((s) => ({ ...s, bold: false }))).replace(/\n/g, " ")}`;
    return { box, title: true, elements: [{ type: "Title", text, markdown, metadata: { heading_level: 1 } }] };
  }
  if (type === "ftr") {
    const text = paragraphs.map((p) => p.text).join("\n");
    return { box, title: false, elements: [{ type: "Footer", text, markdown: text }] };
  }
  if (type !== "subTitle" && paragraphs.every((p) => p.code)) {
    // One listing, its lines, indentation and blank lines kept.
    const code = all
      .map((p) => p.raw.replace(/\s+$/, ""))
      .join("\n")
      .replace(/^\n+|\n+$/g, "");
    return { box, title: false, elements: [{ type: "CodeSnippet", text: code, markdown: `\`\`\`\n${code}\n\`\`\`` }] };
  }
  const elements = paragraphs.map((p): Omit<ParsedElement, "pageNumber"> => {
    const md = spansToMarkdown(p.spans);
    if (type === "subTitle") {
      return { type: "Title", text: p.text, markdown: `## ${md.replace(/\n/g, " ")}`, metadata: { heading_level: 2 } };
    }
    if (p.bullet) {
      return {
        type: "ListItem",
        text: p.text,
        markdown: `${"  ".repeat(p.level)}- ${md}`,
        metadata: { level: p.level, category_depth: p.level },
      };
    }
    const visible = p.text.replace(/\s/g, "").length;
    const boldChars = p.spans.filter((s) => s.bold).reduce((n, s) => n + s.text.replace(/\s/g, "").length, 0);
    const kind: ElementType = classifyDocParagraph({ text: p.text, bold: boldChars >= visible * 0.9 });
    return { type: kind, text: p.text, markdown: md };
  });
  return { box, title: false, elements };
};

const tableItem = (tbl: XmlNode, box: Box | null, rels: Map<string, Relationship>): Item | null => {
  const firstRowHeader = attr(child(tbl, "a:tblPr"), "firstRow") === "1";
  const rows: TableCell[][] = childrenNamed(tbl, "a:tr").map((tr, r) =>
    childrenNamed(tr, "a:tc")
      // Cells covered by a span are written as hMerge/vMerge placeholders; HTML leaves them out.
      .filter((tc) => attr(tc, "hMerge") !== "1" && attr(tc, "vMerge") !== "1")
      .map((tc) => {
        const paragraphs = textParagraphs(child(tc, "a:txBody"), rels, []).filter((p) => p.text);
        return {
          html: paragraphs.map((p) => spansToHtml(p.spans).trim()).join("<br>"),
          text: collapse(paragraphs.map((p) => p.text).join(" ")),
          colspan: Math.min(Math.max(num(attr(tc, "gridSpan")), 1), 1000),
          rowspan: Math.min(Math.max(num(attr(tc, "rowSpan")), 1), 1000),
          header: firstRowHeader && r === 0,
        };
      }),
  );
  const texts = rows.map((r) => r.map((c) => c.text));
  const text = rowsToText(texts);
  if (!text) return null;
  return {
    box,
    title: false,
    elements: [{ type: "Table", text, html: cellsToHtml(rows), markdown: rowsToMarkdown(texts) }],
  };
};

const pictureItem = async (pic: XmlNode, box: Box | null, ctx: SlideContext): Promise<Item | null> => {
  const cNvPr = path(pic, "p:nvPicPr", "p:cNvPr");
  const alt = collapse(attr(cNvPr, "descr") || attr(cNvPr, "title") || "");
  const embed = attr(findFirst([pic], "a:blip"), "r:embed");
  const rel = embed ? ctx.rels.get(embed) : undefined;
  const bytes = rel && !rel.external ? await readZipBytes(ctx.zip, rel.target) : null;
  const mime = bytes ? rasterMime(bytes) : null;
  const imgBase64 = bytes && mime ? ctx.budget.take(bytes) : null;
  if (!imgBase64 && !alt) return null;
  return {
    box,
    title: false,
    elements: [
      {
        type: "Image",
        text: alt,
        imgBase64,
        metadata: { image_mime_type: mime, ...(imgBase64 ? {} : { image_omitted: true }) },
      },
    ],
  };
};

/** A chart's words (title, series, categories); its numbers stay in the chart. */
const chartItem = async (rid: string, box: Box | null, ctx: SlideContext): Promise<Item | null> => {
  const rel = ctx.rels.get(rid);
  if (!rel || rel.external) return null;
  const nodes = await readZipXml(ctx.zip, rel.target, `The chart ${rel.target}`);
  if (!nodes) return null;
  const title = collapse(
    findAll(findAll(nodes, "c:title").slice(0, 1), "a:t")
      .map((t) => childrenOf(t).map(textValue).join(""))
      .join(" "),
  );
  const series = findAll(nodes, "c:ser")
    .slice(0, 50)
    .map((ser) =>
      collapse(
        findAll(childrenNamed(ser, "c:tx"), "c:v")
          .map((v) => childrenOf(v).map(textValue).join(""))
          .join(" "),
      ),
    )
    .filter((s) => s);
  const firstSeries = findAll(nodes, "c:ser")[0];
  const categories = findAll(childrenNamed(firstSeries, "c:cat"), "c:v")
    .slice(0, 100)
    .map((v) => collapse(childrenOf(v).map(textValue).join("")))
    .filter((s) => s);
  const lines = [
    title,
    series.length ? `Series: ${series.join(", ")}` : "",
    categories.length ? `Categories: ${categories.join(", ")}` : "",
  ].filter((l) => l);
  if (lines.length === 0) return null;
  const text = lines.join("\n");
  return {
    box,
    title: false,
    elements: [{ type: "Chart", text, markdown: text, metadata: { chart_title: title || null } }],
  };
};

/** SmartArt keeps its words in a data part; each node reads as a list item. */
const diagramItem = async (rid: string, box: Box | null, ctx: SlideContext): Promise<Item | null> => {
  const rel = ctx.rels.get(rid);
  if (!rel || rel.external) return null;
  const nodes = await readZipXml(ctx.zip, rel.target, `The diagram ${rel.target}`);
  if (!nodes) return null;
  const elements = findAll(nodes, "a:p")
    .slice(0, 500)
    .map((p) =>
      cleanText(
        paragraphSpans(p, new Map())
          .map((s) => s.text)
          .join(""),
      ),
    )
    .filter((t) => t && !isJunkText(t))
    .map((text): Omit<ParsedElement, "pageNumber"> => ({
      type: "ListItem",
      text,
      markdown: `- ${text}`,
      metadata: { smartart: true },
    }));
  return elements.length > 0 ? { box, title: false, elements } : null;
};

const collectItems = async (
  nodes: XmlNode[],
  transform: Transform,
  ctx: SlideContext,
  depth: number,
): Promise<Item[]> => {
  const items: Item[] = [];
  if (depth > 32) return items;
  for (const node of nodes) {
    const name = nameOf(node);
    if (name === "mc:AlternateContent") {
      const choice = child(node, "mc:Choice") ?? child(node, "mc:Fallback");
      items.push(...(await collectItems(choice ? childrenOf(choice) : [], transform, ctx, depth + 1)));
    } else if (name === "p:grpSp") {
      const inner = groupTransform(path(node, "p:grpSpPr", "a:xfrm"), transform);
      items.push(...(await collectItems(childrenOf(node), inner, ctx, depth + 1)));
    } else if (name === "p:sp") {
      const ph = placeholderOf(node);
      if (ph && SKIPPED_PLACEHOLDERS.has(ph.type)) continue;
      let box = readXfrm(path(node, "p:spPr", "a:xfrm"));
      if (!box && ph) {
        const type = normaliseType(ph.type);
        box =
          (ph.idx !== undefined ? ctx.layout?.byIdx.get(ph.idx)?.box : undefined) ??
          ctx.layout?.byType.get(type)?.box ??
          ctx.master?.byType.get(type)?.box ??
          null;
      }
      const item = textShapeItems(node, box ? transform(box) : null, ph, ctx);
      if (item) items.push(item);
    } else if (name === "p:graphicFrame") {
      const raw = readXfrm(child(node, "p:xfrm"));
      const box = raw ? transform(raw) : null;
      const data = path(node, "a:graphic", "a:graphicData");
      const tbl = child(data, "a:tbl");
      const chart = child(data, "c:chart");
      const diagram = child(data, "dgm:relIds");
      const item = tbl
        ? tableItem(tbl, box, ctx.rels)
        : chart && attr(chart, "r:id")
          ? await chartItem(attr(chart, "r:id") ?? "", box, ctx)
          : diagram && attr(diagram, "r:dm")
            ? await diagramItem(attr(diagram, "r:dm") ?? "", box, ctx)
            : null;
      if (item) items.push(item);
    } else if (name === "p:pic") {
      const raw = readXfrm(path(node, "p:spPr", "a:xfrm"));
      const item = await pictureItem(node, raw ? transform(raw) : null, ctx);
      if (item) items.push(item);
    }
  }
  return items;
};

/** Title first; then bands of shapes whose tops are close, each band left to right; footers last. */
const readingOrder = (items: Item[], slideHeight: number): Item[] => {
  const titles = items.filter((i) => i.title);
  const footers = items.filter((i) => !i.title && i.elements.every((e) => e.type === "Footer"));
  const rest = items.filter((i) => !titles.includes(i) && !footers.includes(i));
  const tolerance = slideHeight / 20;
  const placed = rest.filter((i) => i.box).sort((a, b) => (a.box?.y ?? 0) - (b.box?.y ?? 0));
  const bands: Item[][] = [];
  for (const item of placed) {
    const band = bands[bands.length - 1];
    const top = band?.[0]?.box?.y;
    if (band && top !== undefined && (item.box?.y ?? 0) - top <= tolerance) band.push(item);
    else bands.push([item]);
  }
  const ordered = bands.flatMap((band) => band.sort((a, b) => (a.box?.x ?? 0) - (b.box?.x ?? 0)));
  return [...titles, ...ordered, ...rest.filter((i) => !i.box), ...footers];
};

const round = (n: number) => Math.round(n * 100) / 100;

const toPoints = (box: Box | null): BoundingBox | null =>
  box
    ? {
        left: round(box.x / EMU_PER_POINT),
        top: round(box.y / EMU_PER_POINT),
        width: round(box.w / EMU_PER_POINT),
        height: round(box.h / EMU_PER_POINT),
      }
    : null;

const relOfType = (rels: Map<string, Relationship>, suffix: string): Relationship | undefined =>
  [...rels.values()].find((r) => r.type.endsWith(suffix) && !r.external);

const notesText = async (zip: JSZip, rels: Map<string, Relationship>): Promise<string> => {
  const rel = relOfType(rels, "/notesSlide");
  if (!rel) return "";
  const nodes = await readZipXml(zip, rel.target, `The notes ${rel.target}`);
  if (!nodes) return "";
  const lines: string[] = [];
  for (const sp of findAll(nodes, "p:sp")) {
    const ph = placeholderOf(sp);
    if (!ph || ph.type !== "body") continue;
    for (const p of childrenNamed(child(sp, "p:txBody"), "a:p")) {
      const text = cleanText(
        paragraphSpans(p, new Map())
          .map((s) => s.text)
          .join(""),
      );
      if (text) lines.push(text);
    }
  }
  return lines.join("\n");
};

export const partitionPptx = async (bytes: Uint8Array, ext = "pptx"): Promise<PartitionResult> => {
  await checkOfficeZip(bytes, ext);
  try {
    const zip = await loadZip(bytes, ext);
    const rootRels = await readRelationships(zip, "_rels/.rels");
    const presPath = relOfType(rootRels, "/officeDocument")?.target ?? "ppt/presentation.xml";
    const pres = await readZipXml(zip, presPath, `The .${ext} file's presentation part`);
    if (!pres || !findFirst(pres, "p:presentation")) {
      throw new AppError("UNPROCESSABLE", `The .${ext} file is not a valid presentation (no readable ${presPath})`);
    }
    const size = findFirst(pres, "p:sldSz");
    const widthEmu = num(attr(size, "cx")) || 9_144_000;
    const heightEmu = num(attr(size, "cy")) || 6_858_000;
    const pageLayout: PageLayout = { width: round(widthEmu / EMU_PER_POINT), height: round(heightEmu / EMU_PER_POINT) };
    const presRels = await readRelationships(zip, presPath);
    const slidePaths = findAll(pres, "p:sldId")
      .map((s) => presRels.get(attr(s, "r:id") ?? "")?.target)
      .filter((p): p is string => !!p && zip.file(p) !== null);

    const warnings: string[] = [];
    if (slidePaths.length > MAX_SLIDES) {
      warnings.push(`Only the first ${MAX_SLIDES} of ${slidePaths.length} slides were parsed`);
    }
    const templates = new Map<string, Promise<Template>>();
    const template = (p: string | undefined) => {
      if (!p || !zip.file(p)) return Promise.resolve(null);
      let t = templates.get(p);
      if (!t) {
        t = loadTemplate(zip, p);
        templates.set(p, t);
      }
      return t;
    };
    const budget = new ImageBudget();
    const elements: ParsedElement[] = [];
    const slides = slidePaths.slice(0, MAX_SLIDES);
    for (const [index, slidePath] of slides.entries()) {
      const pageNumber = index + 1;
      const slide = await readZipXml(zip, slidePath, `Slide ${pageNumber}`);
      if (!slide) continue;
      const rels = await readRelationships(zip, slidePath);
      const layout = await template(relOfType(rels, "/slideLayout")?.target);
      const master = layout ? await template(relOfType(layout.rels, "/slideMaster")?.target) : null;
      const ctx: SlideContext = { zip, rels, layout, master, budget };
      const root = findFirst(slide, "p:sld");
      if (!root) {
        warnings.push(`Slide ${pageNumber} could not be read (its part is not a slide)`);
        continue;
      }
      const hidden = attr(root, "show") === "0";
      const tree = findFirst(slide, "p:spTree");
      const items = readingOrder(await collectItems(tree ? childrenOf(tree) : [], identity, ctx, 0), heightEmu);
      for (const item of items) {
        for (const element of item.elements) {
          elements.push({
            ...element,
            pageNumber,
            boundingBox: toPoints(item.box),
            pageLayout,
            metadata: { ...element.metadata, ...(hidden ? { slide_hidden: true } : {}) },
          });
        }
      }
      const notes = await notesText(zip, rels);
      if (notes) {
        elements.push({ type: "NarrativeText", text: notes, markdown: notes, pageNumber, metadata: { notes: true } });
      }
    }
    return { elements, totalPages: slides.length, warnings: [...warnings, ...budget.warnings()] };
  } catch (error) {
    throw asUnprocessable(error, ext);
  }
};
