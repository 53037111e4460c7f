import { bulletPrefixLength, GLYPH_START_RE } from "../classify-text";
import { toLine } from "./layout";
import type { Line } from "./types";

/**
 * Bulleted items set side by side, in two or three columns of short items ("• Reading order   • Tables with spans"),
 * as brochures, slides and résumés list them: a row whose every segment opens with a bullet glyph is one item per
 * segment, not one item holding the next column's bullet and words. Numbers are left out: a table's row may open
 * each of its cells with one.
 */
export const bulletsSideBySide = (line: Line): Line[] =>
  line.segments.length >= 2 && line.segments.every((s) => GLYPH_START_RE.test(s.text) && bulletPrefixLength(s.text) > 0)
    ? line.segments.map((s) => toLine([s]))
    : [line];
