import { findEmailAddresses } from "../classify-text";
import type { DocStats } from "./stats";
import type { Block, Line } from "./types";

/**
 * Author lines of a paper's or a report's front matter: a name set a little larger than the body, centred over the
 * lines under it (affiliation, e-mail, date), is no heading. The stack under it must say so: an e-mail address, a
 * date or an institution's name ("University of …", "… Research Lab"), centred on the same axis, and the lines
 * between are the author's affiliation too. The name may share its block with the lines under it. The page's largest
 * text is its title, never an author line.
 */

const DATE_RE =
  /^(?:\d{4}-\d{2}-\d{2}|(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?\d{4})$/i;
/** The words of an affiliation: where an author works ("Department of Physics, Northland University"). */
const AFFILIATION_RE =
  /\b(?:universit|institut|department|dept\.|college|school|laborator|labs?\b|researcher\b|academy|faculty|hospital|corporation|inc\.|ltd\b|gmbh)/i;
const MAX_NAME_SIZE = 1.4;
const STACK_LINES = 5;

const centre = (line: Line) => (line.left + line.right) / 2;

const isNameLine = (block: Block, stats: DocStats, largest: number): boolean => {
  const [line] = block.lines;
  if (!line || block.kind !== "text") return false;
  const text = line.text.trim();
  const size = line.fontSize;
  return text.length <= 60 && !/\d/.test(text) && size <= MAX_NAME_SIZE * stats.bodySize && size < 0.95 * largest;
};

/** The blocks of one region, in reading order, that are author lines; `largest` is the page's largest font size. */
export const authorBlocks = (blocks: readonly Block[], stats: DocStats, largest: number): Set<Block> => {
  const found = new Set<Block>();
  blocks.forEach((block, i) => {
    const name = block.lines[0];
    if (!name || !isNameLine(block, stats, largest)) return;
    const axis = centre(name);
    const tolerance = Math.max(3, 0.3 * name.fontSize);
    let bottom = name.bottom;
    let seen = 0;
    // The affiliation lines between the name and its e-mail or date are the author's too, not headings.
    const stack: Block[] = [];
    for (const next of [block, ...blocks.slice(i + 1)]) {
      stack.push(next);
      for (const line of next === block ? next.lines.slice(1) : next.lines) {
        if (seen >= STACK_LINES || line.top - bottom > 2.5 * name.fontSize) return;
        if (Math.abs(centre(line) - axis) > tolerance) return;
        const text = line.text.trim();
        if (findEmailAddresses(text).length > 0 || DATE_RE.test(text) || AFFILIATION_RE.test(text)) {
          for (const b of stack) found.add(b);
          return;
        }
        bottom = line.bottom;
        seen++;
      }
    }
  });
  return found;
};
