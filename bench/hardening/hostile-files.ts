import { deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import sharp from "sharp";
import { ALLOWED_EXTENSIONS } from "@/server/sources/sources.schema";
import { markdownDoc, pdfDoc, textDoc } from "@/server/testing/fixtures";

/**
 * Hostile files of every allowed format, generated in code: one valid seed per format, then variants made by
 * truncation, bit flips, spliced and repeated slices, and per-family bombs (decompression bombs, deep nesting,
 * loops, absurd declared sizes). Deterministic for a given index, so a failure can be regenerated.
 */

export type HostileFile = { name: string; bytes: Buffer; kind: string };

/** Small deterministic PRNG (mulberry32). */
export const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const zip = async (files: Record<string, string | Buffer>) => {
  const z = new JSZip();
  for (const [name, content] of Object.entries(files)) z.file(name, content);
  return z.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
};

/** A zip whose one entry claims a modest size but inflates to `inflated` bytes (written by hand: JSZip would not lie). */
const zipBomb = (entry: string, inflated: number) => {
  const data = deflateRawSync(Buffer.alloc(inflated, 0x41));
  const name = Buffer.from(entry);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(1000, 22); // the lie
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(1000, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(30 + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
};

const CFB = Buffer.from("d0cf11e0a1b11ae1", "hex");

const seedsOf = async (): Promise<Record<string, Buffer>> => {
  const text = Buffer.from(textDoc(20, "granite"));
  const html = Buffer.from(
    `<html><body><h1>Granite</h1><p>${textDoc(5)}</p><table><tr><td>a</td><td>b</td></tr></table></body></html>`,
  );
  const csv = Buffer.from(
    ["name,depth,stone", ...Array.from({ length: 50 }, (_, i) => `row${i},${i * 3},granite`)].join("\n"),
  );
  const docx = await zip({
    "[Content_Types].xml":
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    "word/document.xml":
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Granite quarry report</w:t></w:r></w:p></w:body></w:document>',
  });
  const pptx = await zip({
    "[Content_Types].xml":
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    "ppt/presentation.xml": '<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
    "ppt/slides/slide1.xml":
      '<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld/></p:sld>',
  });
  const odt = await zip({
    mimetype: "application/vnd.oasis.opendocument.text",
    "content.xml":
      '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text><text:p>Granite</text:p></office:text></office:body></office:document-content>',
  });
  const book = new ExcelJS.Workbook();
  book.addWorksheet("Stones").addRows([
    ["name", "depth"],
    ["granite", 3],
    ["marble", 5],
  ]);
  const xlsx = Buffer.from(await book.xlsx.writeBuffer());
  const picture = sharp({ create: { width: 120, height: 60, channels: 3, background: "#ffffff" } });
  const png = await picture.clone().png().toBuffer();
  const media = (magic: string) => Buffer.concat([Buffer.from(magic, "latin1"), Buffer.alloc(4096, 0x11)]);
  return {
    pdf: await pdfDoc({ pages: 2 }),
    txt: text,
    text,
    md: Buffer.from(markdownDoc()),
    html,
    htm: html,
    csv,
    tsv: Buffer.from(csv.toString().replaceAll(",", "\t")),
    docx,
    pptx,
    odt,
    xlsx,
    doc: Buffer.concat([CFB, Buffer.alloc(4096, 0)]),
    ppt: Buffer.concat([CFB, Buffer.alloc(4096, 0)]),
    xls: Buffer.concat([CFB, Buffer.alloc(4096, 0)]),
    png,
    jpg: await picture.clone().jpeg().toBuffer(),
    jpeg: await picture.clone().jpeg().toBuffer(),
    tiff: await picture.clone().tiff().toBuffer(),
    bmp: Buffer.concat([Buffer.from("BM"), Buffer.alloc(60, 0)]),
    heic: media("\x00\x00\x00\x18ftypheic"),
    mp3: media("ID3\x04\x00\x00\x00\x00\x00\x00"),
    wav: media("RIFF\x24\x10\x00\x00WAVEfmt "),
    m4a: media("\x00\x00\x00\x20ftypM4A "),
    ogg: media("OggS\x00\x02"),
    flac: media("fLaC"),
    mp4: media("\x00\x00\x00\x20ftypisom"),
    mov: media("\x00\x00\x00\x14ftypqt  "),
    avi: media("RIFF\x24\x10\x00\x00AVI LIST"),
    mkv: media("\x1a\x45\xdf\xa3"),
    webm: media("\x1a\x45\xdf\xa3\x42\x82\x84webm"),
  };
};

const ZIP_FORMATS = new Set(["docx", "pptx", "xlsx", "odt"]);
const TEXT_FORMATS = new Set(["txt", "text", "md", "html", "htm", "csv", "tsv"]);

/** Bombs and pathological structures of a format family; the mutation index picks one. */
const bombs = (ext: string, n: number): Buffer[] => {
  if (ZIP_FORMATS.has(ext)) {
    const entry =
      ext === "docx"
        ? "word/document.xml"
        : ext === "odt"
          ? "content.xml"
          : ext === "xlsx"
            ? "xl/workbook.xml"
            : "ppt/presentation.xml";
    return [zipBomb(entry, 64 * 1024 * 1024), zipBomb(entry, 4 * 1024 * 1024 + n)];
  }
  if (ext === "pdf") {
    const depth = 50_000 + (n % 5) * 10_000;
    const ops = `${"q ".repeat(depth)}BT /F1 12 Tf 72 700 Td (deep) Tj ET ${"Q ".repeat(depth)}`;
    // A page tree whose kid is its own parent: a loop for any reader that follows it.
    const loop =
      "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[2 0 R]/Count 1>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF";
    const stream = `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R>>endobj\n4 0 obj<</Length ${ops.length}>>stream\n${ops}\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF`;
    return [Buffer.from(loop), Buffer.from(stream)];
  }
  if (ext === "html" || ext === "htm" || ext === "md") {
    const depth = 20_000 + (n % 4) * 20_000;
    return [
      Buffer.from(`${"<div>".repeat(depth)}deep${"</div>".repeat(depth)}`),
      Buffer.from(">".repeat(depth) + " deep quote"),
    ];
  }
  if (ext === "csv" || ext === "tsv") {
    const sep = ext === "csv" ? "," : "\t";
    return [
      Buffer.from(Array.from({ length: 200_000 }, (_, i) => `c${i}`).join(sep)),
      Buffer.from(`"${"unterminated ".repeat(50_000)}`),
    ];
  }
  if (ext === "png") {
    const huge = Buffer.from(bombPng());
    return [huge];
  }
  return [Buffer.alloc(64 * 1024, n % 256)];
};

/** A PNG header declaring 60,000 × 60,000 pixels: a decoder that trusts it allocates 14 GB. */
const bombPng = () => {
  const head = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  const dims = Buffer.alloc(8);
  dims.writeUInt32BE(60_000, 0);
  dims.writeUInt32BE(60_000, 4);
  return Buffer.concat([head, dims, Buffer.from([8, 2, 0, 0, 0, 0, 0, 0, 0]), deflateRawSync(Buffer.alloc(1 << 20))]);
};

const mutate = (seed: Buffer, ext: string, index: number): { bytes: Buffer; kind: string } => {
  const rand = prng(index * 7919 + ext.length);
  const kind = index % 6;
  if (kind === 0) return { bytes: seed.subarray(0, Math.floor(seed.length * rand())), kind: "truncated" };
  if (kind === 1) {
    const out = Buffer.from(seed);
    const flips = 1 + Math.floor(rand() * 32);
    for (let i = 0; i < flips; i++) {
      const at = Math.floor(rand() * out.length);
      out[at] = (out[at] ?? 0) ^ (1 << Math.floor(rand() * 8));
    }
    return { bytes: out, kind: "bit-flips" };
  }
  if (kind === 2) {
    const at = Math.floor(rand() * seed.length);
    const len = Math.floor(rand() * Math.min(4096, seed.length - at));
    const slice = seed.subarray(at, at + len);
    return {
      bytes: Buffer.concat([
        seed.subarray(0, at),
        ...Array(1 + Math.floor(rand() * 50)).fill(slice),
        seed.subarray(at),
      ]),
      kind: "repeated-slice",
    };
  }
  if (kind === 3) {
    const out = Buffer.from(seed);
    const at = Math.floor(rand() * out.length);
    for (let i = at; i < Math.min(out.length, at + 256); i++) out[i] = Math.floor(rand() * 256);
    return { bytes: out, kind: "noise-window" };
  }
  if (kind === 4 && TEXT_FORMATS.has(ext)) {
    const bytes = Buffer.concat([seed, Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]), seed.subarray(0, 100)]);
    return { bytes, kind: "bad-encoding" };
  }
  const list = bombs(ext, index);
  return { bytes: list[index % list.length]!, kind: "bomb" };
};

/** `count` hostile files, cycling through every allowed format. */
export const hostileFiles = async function* (count: number): AsyncGenerator<HostileFile> {
  const seeds = await seedsOf();
  const formats = ALLOWED_EXTENSIONS.filter((ext) => seeds[ext]);
  for (let i = 0; i < count; i++) {
    const ext = formats[i % formats.length]!;
    const { bytes, kind } = mutate(seeds[ext]!, ext, Math.floor(i / formats.length));
    yield { name: `hostile-${i}.${ext}`, bytes, kind };
  }
};

export const HOSTILE_FORMATS = ALLOWED_EXTENSIONS;
