import type JSZip from "jszip";
import { cleanText, isPageChrome } from "./common";
import { attr, childrenOf, MAX_XML_DEPTH, nameOf, readRelationships, readZipXml, textValue, type XmlNode } from "./xml";

/** A Word document's headers and footers, which mammoth does not read: one element text per part. */

const PAGE_FIELD_RE = /^\s*(?:PAGE|NUMPAGES|SECTIONPAGES)\b/i;

/**
 * Text of a header or footer part: paragraphs in order, tabs and breaks kept, page-number fields left out (their
 * value is whatever page Word last showed). Of mc:AlternateContent only the first choice is read.
 */
export const wordPartText = (nodes: XmlNode[]): string => {
  const paragraphs: string[] = [];
  const fields: { instr: string; result: boolean }[] = [];
  const inPageField = () => fields.some((f) => f.result && PAGE_FIELD_RE.test(f.instr));
  const visit = (node: XmlNode, depth: number, out: { text: string }) => {
    if (depth > MAX_XML_DEPTH) return;
    const name = nameOf(node);
    switch (name) {
      case "w:t":
        if (!inPageField()) out.text += childrenOf(node).map(textValue).join("");
        return;
      case "w:tab":
        out.text += "\t";
        return;
      case "w:br":
      case "w:cr":
        out.text += "\n";
        return;
      case "w:instrText": {
        const top = fields[fields.length - 1];
        if (top) top.instr += childrenOf(node).map(textValue).join("");
        return;
      }
      case "w:fldChar": {
        const type = attr(node, "w:fldCharType");
        if (type === "begin") fields.push({ instr: "", result: false });
        else if (type === "separate") {
          const top = fields[fields.length - 1];
          if (top) top.result = true;
        } else if (type === "end") fields.pop();
        return;
      }
      case "w:fldSimple":
        if (PAGE_FIELD_RE.test(attr(node, "w:instr") ?? "")) return;
        break;
      case "w:delText":
      case "mc:Fallback":
        return;
      case "w:p": {
        const inner = { text: "" };
        for (const c of childrenOf(node)) visit(c, depth + 1, inner);
        paragraphs.push(inner.text);
        return;
      }
    }
    for (const c of childrenOf(node)) visit(c, depth + 1, out);
  };
  const sink = { text: "" };
  for (const node of nodes) visit(node, 0, sink);
  return paragraphs
    .map((p) => cleanText(p))
    .filter((p) => p.length > 0)
    .join("\n");
};

const HEADER_FOOTER_TYPES: Record<string, string> = { default: "primary", first: "first_page", even: "even_page" };

/** Header and footer parts in the order the sections reference them, each once with its kind. */
export const readHeadersFooters = async (zip: JSZip, mainPath: string, mainXml: string) => {
  const rels = await readRelationships(zip, mainPath);
  const parts: { path: string; kind: "Header" | "Footer"; hfType: string }[] = [];
  const seen = new Set<string>();
  const re = /<w:(header|footer)Reference\b([^>]*)>/g;
  for (let m = re.exec(mainXml); m; m = re.exec(mainXml)) {
    const attrs = m[2] ?? "";
    const id = /r:id="([^"]*)"/.exec(attrs)?.[1];
    const rel = id ? rels.get(id) : undefined;
    if (!rel || rel.external || seen.has(rel.target)) continue;
    seen.add(rel.target);
    const type = /w:type="([^"]*)"/.exec(attrs)?.[1] ?? "default";
    parts.push({
      path: rel.target,
      kind: m[1] === "header" ? "Header" : "Footer",
      hfType: HEADER_FOOTER_TYPES[type] ?? type,
    });
  }
  const out: { kind: "Header" | "Footer"; text: string; hfType: string }[] = [];
  const texts = new Set<string>();
  for (const part of parts.slice(0, 50)) {
    const nodes = await readZipXml(zip, part.path, `The ${part.kind.toLowerCase()} part ${part.path}`);
    if (!nodes) continue;
    const text = wordPartText(nodes);
    const key = `${part.kind}:${text}`;
    if (!text || isPageChrome(text) || texts.has(key)) continue;
    texts.add(key);
    out.push({ kind: part.kind, text, hfType: part.hfType });
  }
  return out;
};
