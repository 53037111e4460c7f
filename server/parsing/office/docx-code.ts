import { CODE_STYLES, isMonospaceFont } from "../monospace";

/**
 * Code typed into a Word document's body paragraphs: set wholly in a fixed-pitch font, it is styled as code before
 * mammoth turns the document into HTML, as a code style would be (the style map makes such paragraphs one <pre>).
 */

type DocNode = { type: string; value?: string; font?: string | null; styleName?: string | null; children?: DocNode[] };

/** The runs of a paragraph that show text, inside links and bookmarks too. */
const textRuns = (node: DocNode): DocNode[] =>
  (node.children ?? []).flatMap((c) =>
    c.type === "run" ? (c.children?.some((t) => t.type === "text" && t.value?.trim()) ? [c] : []) : textRuns(c),
  );

/** The paragraphs of a document (mammoth's model), in tables and links too. */
const paragraphsOf = (node: DocNode): DocNode[] =>
  node.type === "paragraph" ? [node] : (node.children ?? []).flatMap(paragraphsOf);

/** A paragraph set wholly in a fixed-pitch font (code typed into a body paragraph). */
const inFixedPitch = (paragraph: DocNode) => {
  const runs = textRuns(paragraph);
  return runs.length > 0 && runs.every((r) => r.font && isMonospaceFont(r.font));
};

/**
 * The document with each paragraph set wholly in a fixed-pitch font styled as code, as a code style would be
 * (mammoth's document transform); not in a document typed wholly in one (a typewriter's page).
 */
export const codeByFont = (document: DocNode): DocNode => {
  const paragraphs = paragraphsOf(document).filter((p) => textRuns(p).length > 0);
  const code = new Set(
    paragraphs.filter((p) => !(p.styleName && CODE_STYLES.includes(p.styleName)) && inFixedPitch(p)),
  );
  if (code.size === 0 || code.size > paragraphs.length / 2) return document;
  const restyle = (node: DocNode): DocNode => {
    if (code.has(node)) return { ...node, styleName: "Code" };
    return node.children ? { ...node, children: node.children.map(restyle) } : node;
  };
  return restyle(document);
};
