/**
 * Every file type Quarry reads, keyed by extension, with the format (the parser in partition.ts) that reads it.
 * Isomorphic (no imports): the upload form's file picker, upload validation and GET /config read the allowed list
 * derived from it, and partition.ts, typed by the same formats, does not compile until each format has a parser.
 */

/** What a source may be uploaded as (contract §5.2), in the order GET /config lists them. */
const UPLOADABLE = {
  pdf: "pdf",
  doc: "office",
  docx: "office",
  odt: "office",
  txt: "text",
  text: "text",
  md: "markdown",
  html: "html",
  htm: "html",
  ppt: "office",
  pptx: "office",
  csv: "delimited",
  tsv: "delimited",
  xls: "office",
  xlsx: "office",
  png: "image",
  jpg: "image",
  jpeg: "image",
  tiff: "image",
  bmp: "image",
  heic: "image",
  mp3: "media",
  wav: "media",
  m4a: "media",
  ogg: "media",
  flac: "media",
  mp4: "media",
  mov: "media",
  avi: "media",
  mkv: "media",
  webm: "media",
  // Contract §5.2 "also accepted": TIFF's other spelling, WebP, the OpenDocument spreadsheet and presentation,
  // EPUB, RTF, and subtitles on their own (timed transcripts; the way in for a video whose captions can't be fetched).
  tif: "image",
  webp: "image",
  ods: "office",
  odp: "office",
  epub: "epub",
  rtf: "office",
  vtt: "subtitles",
  srt: "subtitles",
} as const;

/**
 * Also parsed, never uploaded: Markdown's long spelling (a file of a connector's bundle may carry it) and the bundle
 * a connector writes (its documents, parsed as one source).
 */
export const FILE_FORMATS = { ...UPLOADABLE, markdown: "markdown", bundle: "bundle" } as const;

export type ParsedExtension = keyof typeof FILE_FORMATS;
export type FileFormat = (typeof FILE_FORMATS)[ParsedExtension];
export type AllowedExtension = keyof typeof UPLOADABLE;

/** The keys in the order written above (none looks like an integer, so the order is kept). */
export const ALLOWED_EXTENSIONS: readonly AllowedExtension[] = Object.keys(UPLOADABLE) as AllowedExtension[];

export const isAllowedExtension = (ext: string): ext is AllowedExtension => Object.hasOwn(UPLOADABLE, ext);

export const isParsedExtension = (ext: string): ext is ParsedExtension => Object.hasOwn(FILE_FORMATS, ext);
