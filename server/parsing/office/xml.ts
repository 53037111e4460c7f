import { XMLParser } from "fast-xml-parser";
import JSZip from "jszip";
import { AppError, errorMessage, isAppError } from "@/server/errors";

/**
 * Reading the XML parts of Office packages (OOXML and ODF). fast-xml-parser in preserveOrder mode keeps mixed
 * content in document order (runs, tabs and breaks of a paragraph), which the plain object mode would regroup.
 * A node is `{ "<tag>": children[], ":@": attributes }` or `{ "#text": string }`.
 */
export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  // Numeric character references (&#xA0;) are only decoded with htmlEntities on.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
});

/** Deeper than this, XML is hostile, not a document: the tree walkers below stop there. */
export const MAX_XML_DEPTH = 256;

/**
 * Parses one part. Office parts never carry a DOCTYPE; one that does could define entities that expand without
 * bound, so it is refused rather than parsed.
 */
export const parseXml = (text: string, what: string): XmlNode[] => {
  if (/<!DOCTYPE/i.test(text)) {
    throw new AppError("UNPROCESSABLE", `${what} contains a DOCTYPE declaration, which Office documents never do`);
  }
  try {
    return parser.parse(text) as XmlNode[];
  } catch (error) {
    throw new AppError("UNPROCESSABLE", `${what} is not well-formed XML (${errorMessage(error)})`, { cause: error });
  }
};

export const nameOf = (node: XmlNode): string => {
  for (const key in node) if (key !== ":@") return key;
  return "";
};

export const childrenOf = (node: XmlNode): XmlNode[] => {
  const value = node[nameOf(node)];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
};

export const attrsOf = (node: XmlNode): Record<string, string> =>
  (node[":@"] as Record<string, string> | undefined) ?? {};

export const attr = (node: XmlNode | undefined, name: string): string | undefined =>
  node ? attrsOf(node)[name] : undefined;

export const isTextNode = (node: XmlNode): boolean => "#text" in node;

export const textValue = (node: XmlNode): string => {
  const value = node["#text"];
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
};

export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node ? childrenOf(node).find((c) => nameOf(c) === name) : undefined;

export const childrenNamed = (node: XmlNode | undefined, name: string): XmlNode[] =>
  node ? childrenOf(node).filter((c) => nameOf(c) === name) : [];

/** A path of child names, e.g. path(slide, "p:cSld", "p:spTree"). */
export const path = (node: XmlNode | undefined, ...names: string[]): XmlNode | undefined => {
  let current = node;
  for (const name of names) current = child(current, name);
  return current;
};

/** The first node with this name among `nodes` and their descendants (document order, bounded depth). */
export const findFirst = (nodes: XmlNode[], name: string): XmlNode | undefined => {
  const stack: { node: XmlNode; depth: number }[] = nodes.map((node) => ({ node, depth: 0 })).reverse();
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    if (nameOf(item.node) === name) return item.node;
    if (item.depth >= MAX_XML_DEPTH) continue;
    const kids = childrenOf(item.node);
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i];
      if (kid) stack.push({ node: kid, depth: item.depth + 1 });
    }
  }
  return undefined;
};

/** All nodes with this name (not searching inside matches), document order, bounded depth. */
export const findAll = (nodes: XmlNode[], name: string): XmlNode[] => {
  const out: XmlNode[] = [];
  const stack: { node: XmlNode; depth: number }[] = nodes.map((node) => ({ node, depth: 0 })).reverse();
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    if (nameOf(item.node) === name) {
      out.push(item.node);
      continue;
    }
    if (item.depth >= MAX_XML_DEPTH) continue;
    const kids = childrenOf(item.node);
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i];
      if (kid) stack.push({ node: kid, depth: item.depth + 1 });
    }
  }
  return out;
};

/** Loads a package whose bytes already passed the ZIP limits. */
export const loadZip = async (bytes: Uint8Array, ext: string): Promise<JSZip> => {
  try {
    return await JSZip.loadAsync(bytes);
  } catch (error) {
    throw new AppError("UNPROCESSABLE", `The .${ext} file is not a valid Office document (${errorMessage(error)})`, {
      cause: error,
    });
  }
};

export const readZipText = async (zip: JSZip, name: string): Promise<string | null> => {
  const file = zip.file(name);
  return file ? file.async("string") : null;
};

export const readZipBytes = async (zip: JSZip, name: string): Promise<Uint8Array | null> => {
  const file = zip.file(name);
  return file ? file.async("uint8array") : null;
};

/** Reads and parses a part; null when the package does not have it. */
export const readZipXml = async (zip: JSZip, name: string, what: string): Promise<XmlNode[] | null> => {
  const text = await readZipText(zip, name);
  return text === null ? null : parseXml(text, what);
};

export type Relationship = { id: string; type: string; target: string; external: boolean };

/** Resolves a relationship target against the folder of the part that declares it ("../media/a.png"). */
export const resolvePartPath = (fromPart: string, target: string): string => {
  if (target.startsWith("/")) return target.slice(1);
  const parts = fromPart.split("/").slice(0, -1);
  for (const segment of target.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return parts.join("/");
};

/** The relationships of a part (`word/document.xml` → `word/_rels/document.xml.rels`), targets resolved. */
export const readRelationships = async (zip: JSZip, partPath: string): Promise<Map<string, Relationship>> => {
  const dir = partPath.split("/").slice(0, -1).join("/");
  const file = partPath.split("/").pop() ?? "";
  const relsPath = `${dir ? `${dir}/` : ""}_rels/${file}.rels`;
  const nodes = await readZipXml(zip, relsPath, `The relationships part ${relsPath}`);
  const out = new Map<string, Relationship>();
  if (!nodes) return out;
  for (const rel of findAll(nodes, "Relationship")) {
    const id = attr(rel, "Id");
    const target = attr(rel, "Target");
    if (!id || !target) continue;
    const external = attr(rel, "TargetMode") === "External";
    out.set(id, {
      id,
      type: attr(rel, "Type") ?? "",
      target: external ? target : resolvePartPath(partPath, target),
      external,
    });
  }
  return out;
};

/** Errors a malformed package throws from deep inside a library become a message a person can act on. */
export const asUnprocessable = (error: unknown, ext: string): AppError => {
  if (isAppError(error)) return error;
  const detail = errorMessage(error).replace(/\s+/g, " ").trim().slice(0, 200);
  return new AppError("UNPROCESSABLE", `The .${ext} file could not be read; it may be damaged (${detail})`, {
    cause: error,
  });
};
