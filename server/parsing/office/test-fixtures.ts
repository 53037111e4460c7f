import { deflateRawSync } from "node:zlib";
import JSZip from "jszip";
import { expect } from "vitest";
import { AppError } from "@/server/errors";

/**
 * Small but valid Office packages built in code for the tests: only the parts a reader needs, written the way
 * Word, PowerPoint and LibreOffice write them.
 */

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A 1x1 red PNG. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

const escape = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const relsXml = (rels: { id: string; type: string; target: string; external?: boolean }[]) =>
  `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels
    .map(
      (r) =>
        `<Relationship Id="${r.id}" Type="${REL}/${r.type}" Target="${escape(r.target)}"${r.external ? ' TargetMode="External"' : ""}/>`,
    )
    .join("")}</Relationships>`;

const contentTypes = (overrides: Record<string, string>) =>
  `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>${Object.entries(
    overrides,
  )
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join("")}</Types>`;

const generate = (zip: JSZip) => zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });

// ---------------------------------------------------------------- DOCX

/** A Word run; `br: "page"` writes an explicit page break after the text. */
export const wRun = (text: string, opts: { bold?: boolean; italic?: boolean } = {}) =>
  `<w:r>${opts.bold || opts.italic ? `<w:rPr>${opts.bold ? "<w:b/>" : ""}${opts.italic ? "<w:i/>" : ""}</w:rPr>` : ""}<w:t xml:space="preserve">${escape(text)}</w:t></w:r>`;

/** A run in a font of its own (`w:rFonts`), spaces kept. */
export const wFontRun = (text: string, font: string) =>
  `<w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/></w:rPr><w:t xml:space="preserve">${escape(text)}</w:t></w:r>`;

export const wPara = (
  content: string | string[],
  opts: { style?: string; numbered?: { level: number }; pageBreakBefore?: boolean } = {},
) => {
  const runs = Array.isArray(content) ? content.join("") : wRun(content);
  const pPr =
    opts.style || opts.numbered || opts.pageBreakBefore
      ? `<w:pPr>${opts.style ? `<w:pStyle w:val="${opts.style}"/>` : ""}${opts.pageBreakBefore ? "<w:pageBreakBefore/>" : ""}${opts.numbered ? `<w:numPr><w:ilvl w:val="${opts.numbered.level}"/><w:numId w:val="1"/></w:numPr>` : ""}</w:pPr>`
      : "";
  return `<w:p>${pPr}${runs}</w:p>`;
};

export const wPageBreak = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
export const wRenderedBreak = "<w:r><w:lastRenderedPageBreak/></w:r>";

export const wTable = (rows: (string | { text: string; gridSpan?: number; vMerge?: "restart" | "continue" })[][]) =>
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>${rows
    .map(
      (cells) =>
        `<w:tr>${cells
          .map((c) => {
            const cell = typeof c === "string" ? { text: c } : c;
            const tcPr =
              cell.gridSpan || cell.vMerge
                ? `<w:tcPr>${cell.gridSpan ? `<w:gridSpan w:val="${cell.gridSpan}"/>` : ""}${cell.vMerge ? `<w:vMerge${cell.vMerge === "restart" ? ' w:val="restart"' : ""}/>` : ""}</w:tcPr>`
                : "";
            return `<w:tc>${tcPr}${wPara(cell.text)}</w:tc>`;
          })
          .join("")}</w:tr>`,
    )
    .join("")}</w:tbl>`;

export const wHyperlink = (rid: string, text: string) => `<w:hyperlink r:id="${rid}">${wRun(text)}</w:hyperlink>`;

export const wImage = (rid: string, alt: string) =>
  `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="9525" cy="9525"/><wp:docPr id="1" name="Picture 1" descr="${escape(alt)}"/><a:graphic ${A}><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="image1.png" descr="${escape(alt)}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${rid}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

const DOCX_STYLES = `${xmlHead}<w:styles ${W}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style><w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/></w:style><w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style></w:styles>`;

const DOCX_NUMBERING = `${xmlHead}<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;

export type DocxSpec = {
  body: string;
  header?: string;
  footer?: string;
  /** Extra relationships of the main document (hyperlinks, images): id → target. */
  links?: Record<string, string>;
  images?: Record<string, Uint8Array>;
  /** Replaces word/document.xml as written (malformed-file tests). */
  rawDocument?: string;
};

export const buildDocx = async (spec: DocxSpec): Promise<Uint8Array> => {
  const zip = new JSZip();
  const rels: { id: string; type: string; target: string; external?: boolean }[] = [
    { id: "rIdStyles", type: "styles", target: "styles.xml" },
    { id: "rIdNumbering", type: "numbering", target: "numbering.xml" },
  ];
  let sect = "";
  if (spec.header !== undefined) {
    rels.push({ id: "rIdHeader1", type: "header", target: "header1.xml" });
    zip.file("word/header1.xml", `${xmlHead}<w:hdr ${W}>${spec.header}</w:hdr>`);
    sect += '<w:headerReference w:type="default" r:id="rIdHeader1"/>';
  }
  if (spec.footer !== undefined) {
    rels.push({ id: "rIdFooter1", type: "footer", target: "footer1.xml" });
    zip.file("word/footer1.xml", `${xmlHead}<w:ftr ${W}>${spec.footer}</w:ftr>`);
    sect += '<w:footerReference w:type="default" r:id="rIdFooter1"/>';
  }
  for (const [id, target] of Object.entries(spec.links ?? {})) {
    rels.push({ id, type: "hyperlink", target, external: true });
  }
  for (const [id, bytes] of Object.entries(spec.images ?? {})) {
    rels.push({ id, type: "image", target: `media/${id}.png` });
    zip.file(`word/media/${id}.png`, bytes);
  }
  zip.file(
    "[Content_Types].xml",
    contentTypes({
      "word/document.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
      "word/styles.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
      "word/numbering.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
    }),
  );
  zip.file("_rels/.rels", relsXml([{ id: "rId1", type: "officeDocument", target: "word/document.xml" }]));
  zip.file("word/_rels/document.xml.rels", relsXml(rels));
  zip.file("word/styles.xml", DOCX_STYLES);
  zip.file("word/numbering.xml", DOCX_NUMBERING);
  zip.file(
    "word/document.xml",
    spec.rawDocument ??
      `${xmlHead}<w:document ${W} ${R}><w:body>${spec.body}<w:sectPr>${sect}</w:sectPr></w:body></w:document>`,
  );
  return generate(zip);
};

// ---------------------------------------------------------------- PPTX

/** A shape; `ph` makes it a placeholder ("title", "body", …), `box` is [x, y, w, h] in points. */
export const pShape = ({
  ph,
  box,
  paragraphs,
  name = "Shape",
}: {
  ph?: { type?: string; idx?: number };
  box?: [number, number, number, number];
  paragraphs: (
    | string
    | { text: string; level?: number; bullet?: boolean | "inherit"; bold?: boolean; font?: string; runs?: string[] }
  )[];
  name?: string;
}) => {
  const xfrm = box
    ? `<a:xfrm><a:off x="${box[0] * 12700}" y="${box[1] * 12700}"/><a:ext cx="${box[2] * 12700}" cy="${box[3] * 12700}"/></a:xfrm>`
    : "";
  const phXml = ph
    ? `<p:ph${ph.type ? ` type="${ph.type}"` : ""}${ph.idx !== undefined ? ` idx="${ph.idx}"` : ""}/>`
    : "";
  const paras = paragraphs
    .map((p) => {
      const spec = typeof p === "string" ? { text: p } : p;
      const bullet = spec.bullet === true ? '<a:buChar char="•"/>' : spec.bullet === false ? "<a:buNone/>" : "";
      const pPr = spec.level || bullet ? `<a:pPr${spec.level ? ` lvl="${spec.level}"` : ""}>${bullet}</a:pPr>` : "";
      const rPr = `<a:rPr lang="en-US"${spec.bold ? ' b="1"' : ""}>${spec.font ? `<a:latin typeface="${spec.font}"/>` : ""}</a:rPr>`;
      // `runs`: more runs after the first, in the default face.
      const more = (spec.runs ?? []).map((r) => `<a:r><a:rPr lang="en-US"/><a:t>${escape(r)}</a:t></a:r>`).join("");
      return `<a:p>${pPr}<a:r>${rPr}<a:t xml:space="preserve">${escape(spec.text)}</a:t></a:r>${more}</a:p>`;
    })
    .join("");
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="${name}"/><p:cNvSpPr/><p:nvPr>${phXml}</p:nvPr></p:nvSpPr><p:spPr>${xfrm}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>${paras}</p:txBody></p:sp>`;
};

export const pTable = (
  box: [number, number, number, number],
  rows: (string | { text: string; gridSpan?: number; hMerge?: boolean })[][],
  firstRow = true,
) =>
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${box[0] * 12700}" y="${box[1] * 12700}"/><a:ext cx="${box[2] * 12700}" cy="${box[3] * 12700}"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr${firstRow ? ' firstRow="1"' : ""}/><a:tblGrid/>${rows
    .map(
      (cells) =>
        `<a:tr h="100">${cells
          .map((c) => {
            const cell = typeof c === "string" ? { text: c } : c;
            return `<a:tc${cell.gridSpan ? ` gridSpan="${cell.gridSpan}"` : ""}${cell.hMerge ? ' hMerge="1"' : ""}><a:txBody><a:bodyPr/><a:p><a:r><a:t>${escape(cell.text)}</a:t></a:r></a:p></a:txBody></a:tc>`;
          })
          .join("")}</a:tr>`,
    )
    .join("")}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;

export const pPicture = (rid: string, box: [number, number, number, number], alt: string) =>
  `<p:pic><p:nvPicPr><p:cNvPr id="5" name="Picture" descr="${escape(alt)}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="${rid}"/></p:blipFill><p:spPr><a:xfrm><a:off x="${box[0] * 12700}" y="${box[1] * 12700}"/><a:ext cx="${box[2] * 12700}" cy="${box[3] * 12700}"/></a:xfrm></p:spPr></p:pic>`;

export type PptxSpec = {
  slides: { shapes: string[]; notes?: string; images?: Record<string, Uint8Array> }[];
  /** Slide size in points. */
  size?: [number, number];
  /** Replaces ppt/presentation.xml as written. */
  rawPresentation?: string;
};

/** The layout has a body placeholder (idx 1) at a known position; the master's body style has bullets. */
const LAYOUT = `${xmlHead}<p:sldLayout ${A} ${P} ${R}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/><p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="274638"/><a:ext cx="8229600" cy="1143000"/></a:xfrm></p:spPr></p:sp><p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="4525963"/></a:xfrm></p:spPr></p:sp></p:spTree></p:cSld></p:sldLayout>`;
const MASTER = `${xmlHead}<p:sldMaster ${A} ${P} ${R}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld><p:txStyles><p:titleStyle><a:lvl1pPr><a:buNone/></a:lvl1pPr></p:titleStyle><p:bodyStyle><a:lvl1pPr><a:buChar char="•"/></a:lvl1pPr><a:lvl2pPr><a:buChar char="–"/></a:lvl2pPr></p:bodyStyle><p:otherStyle><a:lvl1pPr/></p:otherStyle></p:txStyles></p:sldMaster>`;

export const buildPptx = async (spec: PptxSpec): Promise<Uint8Array> => {
  const zip = new JSZip();
  const [w, h] = spec.size ?? [720, 540];
  const overrides: Record<string, string> = {
    "ppt/presentation.xml": "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
  };
  zip.file("_rels/.rels", relsXml([{ id: "rId1", type: "officeDocument", target: "ppt/presentation.xml" }]));
  zip.file("ppt/slideLayouts/slideLayout1.xml", LAYOUT);
  zip.file(
    "ppt/slideLayouts/_rels/slideLayout1.xml.rels",
    relsXml([{ id: "rId1", type: "slideMaster", target: "../slideMasters/slideMaster1.xml" }]),
  );
  zip.file("ppt/slideMasters/slideMaster1.xml", MASTER);
  const presRels = [{ id: "rIdMaster", type: "slideMaster", target: "slideMasters/slideMaster1.xml" }];
  const ids: string[] = [];
  spec.slides.forEach((slide, i) => {
    const n = i + 1;
    presRels.push({ id: `rIdSlide${n}`, type: "slide", target: `slides/slide${n}.xml` });
    ids.push(`<p:sldId id="${255 + n}" r:id="rIdSlide${n}"/>`);
    overrides[`ppt/slides/slide${n}.xml`] = "application/vnd.openxmlformats-officedocument.presentationml.slide+xml";
    const rels = [{ id: "rIdLayout", type: "slideLayout", target: "../slideLayouts/slideLayout1.xml" }];
    for (const [id, bytes] of Object.entries(slide.images ?? {})) {
      rels.push({ id, type: "image", target: `../media/s${n}-${id}.png` });
      zip.file(`ppt/media/s${n}-${id}.png`, bytes);
    }
    if (slide.notes !== undefined) {
      rels.push({ id: "rIdNotes", type: "notesSlide", target: `../notesSlides/notesSlide${n}.xml` });
      zip.file(
        `ppt/notesSlides/notesSlide${n}.xml`,
        `${xmlHead}<p:notes ${A} ${P} ${R}><p:cSld><p:spTree>${pShape({ ph: { type: "sldImg" }, paragraphs: [] })}${pShape({ ph: { type: "body", idx: 1 }, paragraphs: [slide.notes] })}</p:spTree></p:cSld></p:notes>`,
      );
    }
    zip.file(`ppt/slides/_rels/slide${n}.xml.rels`, relsXml(rels));
    zip.file(
      `ppt/slides/slide${n}.xml`,
      `${xmlHead}<p:sld ${A} ${P} ${R}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${slide.shapes.join("")}</p:spTree></p:cSld></p:sld>`,
    );
  });
  zip.file("ppt/_rels/presentation.xml.rels", relsXml(presRels));
  zip.file(
    "ppt/presentation.xml",
    spec.rawPresentation ??
      `${xmlHead}<p:presentation ${A} ${P} ${R}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rIdMaster"/></p:sldMasterIdLst><p:sldIdLst>${ids.join("")}</p:sldIdLst><p:sldSz cx="${w * 12700}" cy="${h * 12700}"/></p:presentation>`,
  );
  zip.file("[Content_Types].xml", contentTypes(overrides));
  return generate(zip);
};

// ---------------------------------------------------------------- ODT

const ODF_NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
].join(" ");

export type OdtSpec = {
  /** Inner XML of office:text. */
  body: string;
  /** Inner XML of office:automatic-styles in content.xml. */
  automaticStyles?: string;
  /** Inner XML of office:master-styles in styles.xml (headers and footers). */
  masterStyles?: string;
  images?: Record<string, Uint8Array>;
  rawContent?: string;
  encrypted?: boolean;
};

export const buildOdt = async (spec: OdtSpec): Promise<Uint8Array> => {
  const zip = new JSZip();
  zip.file("mimetype", "application/vnd.oasis.opendocument.text", { compression: "STORE" });
  zip.file(
    "META-INF/manifest.xml",
    `${xmlHead}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${spec.encrypted ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"/>' : ""}</manifest:file-entry></manifest:manifest>`,
  );
  zip.file(
    "content.xml",
    spec.rawContent ??
      `${xmlHead}<office:document-content ${ODF_NS} office:version="1.3"><office:automatic-styles>${spec.automaticStyles ?? ""}</office:automatic-styles><office:body><office:text>${spec.body}</office:text></office:body></office:document-content>`,
  );
  zip.file(
    "styles.xml",
    `${xmlHead}<office:document-styles ${ODF_NS} office:version="1.3"><office:styles><style:style style:name="Title" style:family="paragraph"/></office:styles><office:master-styles>${spec.masterStyles ?? ""}</office:master-styles></office:document-styles>`,
  );
  for (const [name, bytes] of Object.entries(spec.images ?? {})) zip.file(`Pictures/${name}`, bytes);
  return generate(zip);
};

// ---------------------------------------------------------------- ZIP surgery

/** Offsets of ZIP records with this signature (local file header 0x04034b50, central directory 0x02014b50). */
const findSignatures = (bytes: Uint8Array, signature: number): number[] => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++) if (view.getUint32(i, true) === signature) out.push(i);
  return out;
};

/**
 * Rewrites the declared uncompressed size of every entry (local and central headers) — a "lying" package whose
 * data inflates to more than it says.
 */
export const withDeclaredSize = (zip: Uint8Array, size: number): Uint8Array => {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  for (const at of findSignatures(out, 0x04034b50)) view.setUint32(at + 22, size, true);
  for (const at of findSignatures(out, 0x02014b50)) view.setUint32(at + 24, size, true);
  return out;
};

/** Sets the "encrypted" flag (general purpose bit 0) on every entry. */
export const withEncryptedFlag = (zip: Uint8Array): Uint8Array => {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer);
  for (const at of findSignatures(out, 0x04034b50)) view.setUint16(at + 6, view.getUint16(at + 6, true) | 1, true);
  for (const at of findSignatures(out, 0x02014b50)) view.setUint16(at + 8, view.getUint16(at + 8, true) | 1, true);
  return out;
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

const crc32 = (data: Uint8Array): number => {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = (CRC_TABLE[(c ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/**
 * A plain ZIP with deflated entries, written with node's zlib (much faster than jszip for the megabytes of zeros
 * a bomb needs).
 */
export const deflatedZip = (entries: { name: string; data: Uint8Array }[]): Uint8Array => {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const compressed = deflateRawSync(data);
    const fileName = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, compressed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
};

/** The promise fails with AppError(UNPROCESSABLE) — a message for a person, never a crash. */
export const expectUnprocessable = async (work: Promise<unknown> | unknown): Promise<AppError> => {
  const error = await Promise.resolve(work).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("UNPROCESSABLE");
  return error as AppError;
};
