import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { decodeText } from "./encoding";
import { partitionHtmlText, sniffDeclaredCharset } from "./html";
import type { ParsedElement, PartitionResult } from "./types";

/**
 * A page fetched from the web (not an uploaded .html file): its main content first. Readability (Firefox's reader
 * view) on a linkedom DOM finds the article; its HTML then goes through the same element typing as uploads
 * (titles, lists, tables, code, links). When Readability finds too little (a landing page, a list of links), the
 * whole page is read with the upload parser's boilerplate removal (nav, header, footer, aside dropped).
 */

/** Readability's own default; below it the "article" is usually a fragment of chrome. */
const MIN_ARTICLE_CHARS = 250;

export type WebPageInput = {
  bytes: Uint8Array;
  /** Where the page was fetched from: relative links are resolved against it. */
  url: string;
  /** From the Content-Type header; wins over <meta charset>. */
  charset?: string | null;
};

const absolute = (href: string, base: string) => {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
};

/**
 * Readability's article, or null when it found nothing worth calling one; and the page's first <h1>, read before
 * Readability rewrites the document (it drops the heading that repeats the <title>).
 */
const readArticle = (html: string) => {
  try {
    const { document } = parseHTML(html);
    const heading = (document.querySelector("h1")?.textContent ?? "").replace(/\s+/g, " ").trim();
    const article = new Readability(document as unknown as Document, { charThreshold: MIN_ARTICLE_CHARS }).parse();
    if (!article?.content || (article.textContent ?? "").trim().length < MIN_ARTICLE_CHARS)
      return { article: null, heading };
    return { article, heading };
  } catch {
    return { article: null, heading: "" };
  }
};

/** The article's title: the page's <h1> when the <title> only adds the site's name to it ("Guide | Site"). */
const titleOf = (title: string, heading: string) =>
  heading && title.toLowerCase().includes(heading.toLowerCase()) ? heading : title;

export const partitionWebPage = ({ bytes, url, charset }: WebPageInput): PartitionResult => {
  const { text, encoding } = decodeText({ bytes, declared: charset ?? sniffDeclaredCharset(bytes) });
  const { article, heading } = readArticle(text);
  let elements: ParsedElement[];
  let extraction: string;
  if (article) {
    elements = partitionHtmlText(article.content!);
    extraction = "readability";
    const title = titleOf((article.title ?? "").trim(), heading);
    if (title && elements[0]?.type !== "Title") {
      elements.unshift({ type: "Title", text: title, pageNumber: null, metadata: { category_depth: 1 } });
    }
  } else {
    elements = partitionHtmlText(text);
    extraction = "boilerplate-removal";
  }
  const pageMeta: Record<string, unknown> = {
    url,
    extraction,
    encoding,
    ...(article?.title ? { page_title: article.title.trim() } : {}),
    ...(article?.byline ? { byline: article.byline.trim() } : {}),
    ...(article?.siteName ? { site_name: article.siteName.trim() } : {}),
    ...(article?.lang ? { languages: [article.lang] } : {}),
  };
  for (const element of elements) {
    const links = element.metadata?.link_urls;
    element.metadata = {
      ...element.metadata,
      ...(Array.isArray(links) ? { link_urls: links.map((l) => absolute(String(l), url)) } : {}),
      ...pageMeta,
    };
    if (element.type === "Image" && typeof element.metadata.image_url === "string") {
      element.metadata.image_url = absolute(element.metadata.image_url, url);
    }
  }
  return { elements, totalPages: null, warnings: [] };
};
