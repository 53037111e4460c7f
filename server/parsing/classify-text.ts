import type { ElementType } from "./types";

/**
 * Heuristics shared by the plain-text parsers (TXT, PDF text layer). Every pattern here is anchored and built from
 * disjoint character classes or bounded repeats, and callers cap the input length, so user text cannot make a
 * regex backtrack for long.
 */

/** Longer strings are never bullets, titles, e-mails or addresses; checking them would only cost time. */
const SHORT_TEXT = 300;

/**
 * Characters set as a list's bullet, for a character class: dashes and dots, squares, circles, diamonds, checkboxes,
 * right-pointing arrows and triangles, full blocks, spots, rings and stars ("⦁", "⬤", "◉", "✦"), and the private-use
 * codes a symbol font's glyphs (Symbol, Wingdings: U+F0B7, U+F0A7) come out as when the font maps them to nothing
 * else, and the private-use codes of OpenSymbol's own bullets (U+E000–U+E0FF: LibreOffice's arrows, ticks and
 * squares). Up and down triangles are left out: they mark a change in a table ("▲ 2.3%").
 */
const BULLET_GLYPHS =
  "\\-*•·∙◦‣⁃–—▪▫■□◼◻◾◽●○◆◇◈♦❖❑❒❏❐☐☑☒▸▹►▻▶➢➤➔➙➛➜➝➞➟➠➡→⇒❯❱✓✔✗✘█▌⦁⦾⦿⚫⚬⬤◉◊⬥⬦⬧✦✧❍\\uE000-\\uE0FF\\uF020-\\uF0FF";
const GLYPH = `[${BULLET_GLYPHS}]`;
/** "1.", "1)", "a)", "iv.", or wholly in parentheses: "(a)", "(3)"; "(z. B." opens an aside, not an item. */
const NUMBER = "(?:(?:\\d{1,3}|[a-zA-Z]|[ivx]{1,5}|[IVX]{1,5})[.)]|\\((?:\\d{1,3}|[a-zA-Z]|[ivx]{1,5}|[IVX]{1,5})\\))";

// Bullet glyphs, then numbered/lettered markers — each followed by whitespace.
const BULLET_RE = new RegExp(`^[ \\t]*(?:${GLYPH}|${NUMBER})[ \\t]+(?=\\S)`);
/**
 * A round or square bullet set against the item's first word, no space between ("•Install the service"): such a
 * glyph opens a line for nothing but a list item. Dashes, asterisks and arrows are left out ("-5", "*Note", "→x").
 */
const TIGHT_BULLET_RE = /^[ \t]*[•▪■●◦\uF0A7\uF0B7](?=\p{L})/u;
/** A list marker standing alone, as a run or segment of its own ("•", "1.", "(a)"). */
export const MARKER_RE = new RegExp(`^(?:${GLYPH}|${NUMBER})$`);
/** A line that opens with a bullet glyph, not a number or letter. */
export const GLYPH_START_RE = new RegExp(`^[ \\t]*${GLYPH}`);
const EMAIL_RE = /^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}$/;
const EMAIL_SEARCH_RE = /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g;
// "Doylestown, PA 18901" / "Springfield, IL 62704-1234"
const CITY_STATE_ZIP_RE = /^[A-Za-z][A-Za-z .'-]{0,40},[ \t]*[A-Z]{2}[ \t]+\d{5}(?:-\d{4})?$/;
// "123 Main Street", "4 Privet Dr., Little Whinging"
const STREET_RE =
  /^\d{1,6}[ \t]+(?:[A-Za-z0-9.'-]{1,30}[ \t]+){1,5}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|square|sq|parkway|pkwy)\.?(?:,[^\n]{0,80})?$/i;
const TERMINAL_RE = /[.!?…。！？"”'’»)\]]$/;
const LETTER_RE = /\p{L}/u;

export const wordCount = (text: string): number => {
  let count = 0;
  let inWord = false;
  for (const ch of text) {
    const space = ch === " " || ch === "\t" || ch === "\n";
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
};

/** "R. H. Whitehouse": a name's initials, not a lettered item. */
const INITIALS_RE = /^[ \t]*[A-Z]\.[ \t]+[A-Z]\.[ \t]/;

export const bulletPrefixLength = (line: string): number => {
  if (line.length > SHORT_TEXT * 20 || INITIALS_RE.test(line)) return 0;
  const match = BULLET_RE.exec(line.slice(0, 40)) ?? TIGHT_BULLET_RE.exec(line);
  return match ? match[0].length : 0;
};

export const isBulleted = (line: string): boolean => bulletPrefixLength(line) > 0;

export const stripBullet = (line: string): string => line.slice(bulletPrefixLength(line)).trim();

const GLYPH_BULLET_RE = new RegExp(`^[ \\t]*${GLYPH}[ \\t]`);

/**
 * A list item's text: a glyph bullet ("•", "-") is dropped, a number or letter ("1.", "(a)", "iv.") is kept, since it
 * is part of what the item says ("step 3", "clause (b)") and of its place in the list.
 */
export const listItemText = (line: string): string =>
  GLYPH_BULLET_RE.test(line) || TIGHT_BULLET_RE.test(line) ? stripBullet(line) || line.trim() : line.trim();

export const isEmailAddress = (text: string): boolean => text.length <= 254 && EMAIL_RE.test(text.trim());

export const findEmailAddresses = (text: string): string[] =>
  text.length > SHORT_TEXT ? [] : (text.match(EMAIL_SEARCH_RE) ?? []);

export const isAddress = (text: string): boolean => {
  const t = text.trim();
  if (t.length > 160) return false;
  return CITY_STATE_ZIP_RE.test(t) || STREET_RE.test(t);
};

export const hasTerminalPunctuation = (text: string): boolean => TERMINAL_RE.test(text.trim());

export const hasLetters = (text: string): boolean => LETTER_RE.test(text.slice(0, 200));

/** A lone page number as it appears in margins: "7", "- 7 -", "Page 7", "7 of 12", "vii". */
export const isPageNumberText = (text: string): boolean => {
  const t = text.trim();
  if (t.length > 20) return false;
  return /^(?:page[ \t]*)?[-–—]?[ \t]*(?:\d{1,5}|[ivxlcdm]{1,7})[ \t]*[-–—]?(?:[ \t]*(?:of|\/)[ \t]*\d{1,5})?$/i.test(
    t,
  );
};

/** Short, no sentence ending, starts like a heading. Whether it is a title also depends on what follows. */
export const isTitleLike = (text: string): boolean => {
  const t = text.trim();
  if (t.length === 0 || t.length > 120) return false;
  if (!hasLetters(t)) return false;
  if (wordCount(t) > 15) return false;
  // Closing quotes and brackets hide a sentence ending: `"You know everything."`
  const bare = t.replace(/["'”’»)\]]+$/, "");
  if (/[.!?;,…。]$/.test(bare)) return false;
  // Two sentences are prose, not a heading ("Don't tease! Well, ...").
  if (/[!?。]\s|[a-z]{2}\.\s+[A-Z]/.test(bare)) return false;
  const first = t.charAt(0);
  if (first !== first.toUpperCase() && first === first.toLowerCase() && /\p{Ll}/u.test(first)) return false;
  return true;
};

export const isSentenceLike = (text: string): boolean => {
  const t = text.trim();
  return hasLetters(t) && (hasTerminalPunctuation(t) || wordCount(t) >= 6);
};

/**
 * Type of a paragraph of plain text that is not a list item. `hasFollowingText` lets a short line become a Title
 * only when something comes after it (a trailing short line is a fragment, not a heading).
 */
export const classifyParagraph = ({
  text,
  hasFollowingText,
}: {
  text: string;
  hasFollowingText: boolean;
}): ElementType => {
  const t = text.trim();
  if (isEmailAddress(t)) return "EmailAddress";
  if (isAddress(t)) return "Address";
  if (!hasLetters(t)) return "UncategorizedText";
  if (hasFollowingText && isTitleLike(t)) return "Title";
  if (isSentenceLike(t)) return "NarrativeText";
  return "UncategorizedText";
};
