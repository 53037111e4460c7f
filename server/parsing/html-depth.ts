/**
 * Browsers' HTML parsing (parse5, behind cheerio) is quadratic in nesting depth: each start tag looks through the
 * stack of open elements. 80,000 nested <div>s took 68 s to parse, a hostile page 189 s. Real pages nest a few dozen
 * levels, so tags that would open deeper than `maxDepth` are dropped before parsing; their text stays where it was.
 * The count is approximate on purpose (a linear scan, no tree): elements that close themselves implicitly (p, li,
 * td, ...) and void elements are not counted, so sloppy but ordinary HTML never reaches the bound.
 */

const VOID_OR_IMPLIED = new Set([
  ...["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"],
  ...["p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "thead", "tbody", "tfoot", "rt", "rp", "colgroup"],
]);

export const MAX_HTML_DEPTH = 256;

const TAG = /<(\/?)([a-zA-Z][\w:-]*)\b[^>]*?(\/?)>/g;

/** The HTML with tags past `maxDepth` removed, and whether anything was removed. */
export const boundHtmlNesting = (html: string, maxDepth = MAX_HTML_DEPTH): { html: string; flattened: boolean } => {
  let depth = 0;
  /** Per tag name, how many opening tags were dropped, so their closing tags are dropped too. */
  const dropped = new Map<string, number>();
  let flattened = false;
  const out = html.replace(TAG, (tag: string, closing: string, rawName: string, selfClosing: string) => {
    const name = rawName.toLowerCase();
    if (VOID_OR_IMPLIED.has(name) || selfClosing) return tag;
    if (closing) {
      const pending = dropped.get(name) ?? 0;
      if (pending > 0) {
        dropped.set(name, pending - 1);
        return "";
      }
      depth = Math.max(0, depth - 1);
      return tag;
    }
    if (depth >= maxDepth) {
      dropped.set(name, (dropped.get(name) ?? 0) + 1);
      flattened = true;
      return "";
    }
    depth += 1;
    return tag;
  });
  return { html: flattened ? out : html, flattened };
};
