/**
 * pdfjs's minified files ship without types (load.ts loads them; the types are those of pdf.mjs), and its worker half
 * is imported only for its side effect (`globalThis.pdfjsWorker`).
 */
declare module "pdfjs-dist/legacy/build/pdf.min.mjs";
declare module "pdfjs-dist/legacy/build/pdf.worker.min.mjs";
