import type { PDFDocument, PDFFont, PDFPage } from "pdf-lib";
import { partitionPdf } from ".";
import { BODY, put } from "./test-fixtures";

/** Test helpers of the heading tests: body text around the lines under test, and the types the parser gives. */

/** Four lines of body text at a 12 pt pitch, from `top`, numbered `n`; returns where the next line would go. */
export const bodyLines = (page: PDFPage, font: PDFFont, top: number, n: number) => {
  for (let i = 0; i < 4; i++) put(page, `${BODY.slice(0, 88)} ${n}.${i}`, 72, top + i * 12, 10, font);
  return top + 4 * 12;
};

/** The document's elements and the type of the element whose whole text is `text`. */
export const typesOf = async (doc: PDFDocument) => {
  const { elements } = await partitionPdf({ bytes: await doc.save() });
  return { elements, typeOf: (text: string) => elements.find((e) => e.text === text)?.type };
};
