import { CODE_STYLES, isMonospaceFont } from "../monospace";
import { attr, child, childrenOf, findAll, nameOf, type XmlNode } from "./xml";

/** An OpenDocument's paragraph and list styles (styles.xml and content.xml), read through their parent chains. */

export type Style = {
  parent?: string;
  displayName?: string;
  bold?: boolean;
  italic?: boolean;
  breakBefore?: boolean;
  breakAfter?: boolean;
  /** A line of a listing: a code style by its name, or set in a fixed-pitch font. */
  code?: "name" | "font" | false;
};

/** Whether a style sets code, and by what (undefined: it does not say). */
const codeStyle = (displayName: string, text: XmlNode | undefined): Style["code"] => {
  if (CODE_STYLES.includes(displayName)) return "name";
  const font = attr(text, "style:font-name") ?? attr(text, "fo:font-family");
  if (attr(text, "style:font-pitch") === "fixed" || (font && isMonospaceFont(font))) return "font";
  return font ? false : undefined;
};

export const readStyles = (roots: XmlNode[][]) => {
  const styles = new Map<string, Style>();
  const listStyles = new Map<string, Map<number, boolean>>();
  for (const nodes of roots) {
    for (const style of findAll(nodes, "style:style")) {
      const name = attr(style, "style:name");
      if (!name) continue;
      const text = child(style, "style:text-properties");
      const para = child(style, "style:paragraph-properties");
      const weight = attr(text, "fo:font-weight");
      const fontStyle = attr(text, "fo:font-style");
      styles.set(name, {
        parent: attr(style, "style:parent-style-name"),
        displayName: attr(style, "style:display-name") ?? name,
        bold: weight === undefined ? undefined : weight === "bold" || Number(weight) >= 600,
        italic: fontStyle === undefined ? undefined : fontStyle === "italic" || fontStyle === "oblique",
        breakBefore: attr(para, "fo:break-before") === "page" || undefined,
        breakAfter: attr(para, "fo:break-after") === "page" || undefined,
        code: codeStyle(attr(style, "style:display-name") ?? name, text),
      });
    }
    for (const list of findAll(nodes, "text:list-style")) {
      const name = attr(list, "style:name");
      if (!name) continue;
      const levels = new Map<number, boolean>();
      for (const level of childrenOf(list)) {
        const n = Number(attr(level, "text:level") ?? "1");
        levels.set(n, nameOf(level) === "text:list-level-style-number");
      }
      listStyles.set(name, levels);
    }
  }
  /** A property through the parent chain (bounded: a cycle of parents must not loop). */
  const resolve = <K extends keyof Style>(name: string | undefined, key: K): Style[K] | undefined => {
    let current = name;
    for (let i = 0; current && i < 20; i++) {
      const style = styles.get(current);
      if (!style) return undefined;
      if (style[key] !== undefined) return style[key];
      current = style.parent;
    }
    return undefined;
  };
  const inherits = (name: string | undefined, wanted: RegExp): boolean => {
    let current = name;
    for (let i = 0; current && i < 20; i++) {
      const style = styles.get(current);
      if (wanted.test(current) || (style?.displayName && wanted.test(style.displayName))) return true;
      current = style?.parent;
    }
    return false;
  };
  return { resolve, inherits, listStyles };
};

export type Styles = ReturnType<typeof readStyles>;
