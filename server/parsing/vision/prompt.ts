import { ELEMENT_TYPES } from "../types";

/** The instructions a vision model gets with every page image. */
export const PAGE_READER_PROMPT = `You convert one page image of a document into structured elements.

Answer with one JSON object and nothing else:
{"elements": [{"type": "...", "text": "...", "html": "...", "bbox": [x0, y0, x1, y1]}]}

Rules:
- List the elements in reading order: top to bottom; in multi-column layouts, the whole left column before the right one.
- "type" is exactly one of: ${ELEMENT_TYPES.join(", ")}.
  Title for headings (any level), NarrativeText for paragraphs, ListItem for each list item (without its bullet),
  Header / Footer / PageNumber for running page furniture, FigureCaption for captions, Table for tables,
  Image for photos, pictures and diagrams, Chart for plots, Formula for equations (text in LaTeX),
  CodeSnippet for source code, Reference for bibliography entries, Address / EmailAddress / Link where they stand alone.
- "text" is the text exactly as printed: do not summarise, translate, correct or complete it. Join the lines of a
  paragraph with spaces; keep line breaks only where they carry meaning (addresses, code, poems).
  For an Image or Chart, "text" is any text inside it, else a one-sentence description.
- For a Table, "html" is one complete <table> with <th> for header cells and colspan / rowspan for merged cells,
  and "text" has one line per row. Leave "html" out for other types.
- "bbox" is the element's box as fractions of the page image: x0, y0 = top-left corner, x1, y1 = bottom-right
  corner, each between 0 and 1.
- Do not invent content that is not on the page. A blank page gives {"elements": []}.`;

export const REPAIR_PROMPT = (problem: string) =>
  `Your answer could not be used (${problem}). Answer again with only the JSON object ` +
  `{"elements": [{"type": ..., "text": ..., "bbox": [x0, y0, x1, y1]}]} for the same page, no other text.`;
