/**
 * The slice of the DOM (domhandler, as cheerio builds it) that the HTML parser reads. Declared here so the parser
 * depends on cheerio's behaviour, not on a transitive package's type names. Traversals are iterative: a page of
 * ten thousand nested <div>s must not overflow the stack.
 */
export type DomNode = {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
};

export const isTag = (node: DomNode): boolean => node.type === "tag" || node.type === "script" || node.type === "style";

export const tagName = (node: DomNode): string => (isTag(node) ? (node.name ?? "").toLowerCase() : "");

export const attr = (node: DomNode, name: string): string | undefined => node.attribs?.[name];

export const childrenOf = (node: DomNode): DomNode[] => node.children ?? [];

/** Text content in document order; <br> becomes a newline. Whitespace is kept as written. */
export const rawText = (node: DomNode): string => {
  const parts: string[] = [];
  const stack: DomNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (!n) break;
    if (n.type === "text") parts.push(n.data ?? "");
    else if (tagName(n) === "br") parts.push("\n");
    else {
      const children = childrenOf(n);
      for (let i = children.length - 1; i >= 0; i--) {
        const c = children[i];
        if (c) stack.push(c);
      }
    }
  }
  return parts.join("");
};

/** Text content with whitespace collapsed (what a reader sees, minus layout). */
export const collapsedText = (node: DomNode): string => rawText(node).replace(/\s+/g, " ").trim();

/** Descendant elements matching a predicate, not descending into matches or into `stopAt` nodes. */
export const findAll = (node: DomNode, match: (n: DomNode) => boolean, stopAt?: (n: DomNode) => boolean): DomNode[] => {
  const out: DomNode[] = [];
  const stack: DomNode[] = [...childrenOf(node)].reverse();
  while (stack.length > 0) {
    const c = stack.pop();
    if (!c) break;
    if (!isTag(c)) continue;
    if (match(c)) out.push(c);
    else if (!stopAt?.(c)) {
      const children = childrenOf(c);
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (child) stack.push(child);
      }
    }
  }
  return out;
};

/** Two <br> with only whitespace between them: the paragraph break of pages written without <p>. */
export const hasDoubleBreak = (node: DomNode): boolean => {
  let lastWasBreak = false;
  const stack: DomNode[] = [...childrenOf(node)].reverse();
  while (stack.length > 0) {
    const c = stack.pop();
    if (!c) break;
    if (c.type === "text") {
      if ((c.data ?? "").trim() !== "") lastWasBreak = false;
    } else if (tagName(c) === "br") {
      if (lastWasBreak) return true;
      lastWasBreak = true;
    } else {
      const children = childrenOf(c);
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (child) stack.push(child);
      }
    }
  }
  return false;
};
