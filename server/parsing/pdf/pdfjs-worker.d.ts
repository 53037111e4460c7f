/** pdfjs's worker half ships without types; load.ts imports it only for its side effect (`globalThis.pdfjsWorker`). */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs";
