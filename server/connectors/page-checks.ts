import { createHash } from "node:crypto";
import * as cheerio from "cheerio";
import { decodeText } from "../parsing/encoding";
import { sniffDeclaredCharset } from "../parsing/html";

/**
 * What the crawler needs to know about a fetched HTML page before it is stored: is it a bot challenge or an empty
 * JavaScript shell (never stored as content), where does it link, and is its text one we already have. The full
 * parse happens later, in the parse worker; this is a cheap look with a size cap on the page.
 */

export type PageLook = {
  /** A bot-challenge or CAPTCHA page, and whose (e.g. "Cloudflare"); null for a real page. */
  challenge: string | null;
  /** Why the page is only a JavaScript shell, or null. */
  javascriptOnly: string | null;
  /** Absolute http(s) links, without fragments, in document order, each once. */
  links: string[];
  /** sha256 of the visible text, whitespace collapsed: the same page under two URLs has the same hash. */
  textHash: string;
  textLength: number;
  title: string | null;
};

/** Pages that need less text than this are judged by their scripts: below it with scripts, it's a JS shell. */
const MIN_TEXT_CHARS = 200;

const CHALLENGES: { vendor: string; test: RegExp }[] = [
  {
    vendor: "Cloudflare",
    test: /<title>\s*just a moment\.\.\.\s*<\/title>|challenge-platform|cf_chl_opt|cf-browser-verification|attention required! \| cloudflare/i,
  },
  { vendor: "DataDome", test: /captcha-delivery\.com/i },
  { vendor: "PerimeterX (HUMAN)", test: /px-captcha|_pxcaptcha|perimeterx/i },
  { vendor: "Imperva Incapsula", test: /_incapsula_resource|incapsula incident id/i },
  { vendor: "DDoS-Guard", test: /<title>\s*ddos-guard\s*<\/title>|ddos-guard\.net\/.*check/i },
  { vendor: "AWS WAF", test: /awswafintegration|aws-waf-token|challenge\.js.*awswaf/i },
  { vendor: "Sucuri", test: /sucuri website firewall|sucuri_cloudproxy/i },
  {
    vendor: "a browser check",
    test: /checking your browser before accessing|enable javascript and cookies to continue/i,
  },
];

const CAPTCHA_RE =
  /class=["'][^"']*\b(?:g-recaptcha|h-captcha|cf-turnstile)\b|hcaptcha\.com\/1\/api\.js|recaptcha\/api\.js|challenges\.cloudflare\.com\/turnstile/i;

const detectChallenge = (html: string, headers: Record<string, string>, textLength: number): string | null => {
  if ((headers["cf-mitigated"] ?? "").toLowerCase() === "challenge") return "Cloudflare";
  const head = html.slice(0, 200_000);
  for (const { vendor, test } of CHALLENGES) if (test.test(head)) return vendor;
  // A CAPTCHA widget on a page with little else on it is a gate, not content (a contact form may carry one too).
  if (CAPTCHA_RE.test(head) && textLength < 1000) return "a CAPTCHA";
  return null;
};

const normalizeLink = (href: string, base: string): string | null => {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
};

export const lookAtPage = ({
  bytes,
  url,
  headers,
  charset,
}: {
  bytes: Uint8Array;
  url: string;
  headers: Record<string, string>;
  charset: string | null;
}): PageLook => {
  const { text: html } = decodeText({ bytes, declared: charset ?? sniffDeclaredCharset(bytes) });
  const $ = cheerio.load(html);
  const title = $("title").first().text().replace(/\s+/g, " ").trim() || null;
  const base = normalizeLink($("base[href]").attr("href") ?? "", url) ?? url;
  const links: string[] = [];
  const seen = new Set<string>();
  $("a[href], area[href]").each((_, el) => {
    const link = normalizeLink($(el).attr("href") ?? "", base);
    if (link && !seen.has(link)) {
      seen.add(link);
      links.push(link);
    }
  });
  const scripts = $("script").length;
  const noscript = $("noscript").text().replace(/\s+/g, " ").trim();
  $("script, style, noscript, template, svg").remove();
  const visible = $("body").text().replace(/\s+/g, " ").trim() || $.root().text().replace(/\s+/g, " ").trim();
  const challenge = detectChallenge(html, headers, visible.length);
  let javascriptOnly: string | null = null;
  if (!challenge && visible.length < MIN_TEXT_CHARS && scripts > 0) {
    javascriptOnly = `only ${visible.length} characters of text without running its ${scripts} script${scripts === 1 ? "" : "s"}${
      /javascript/i.test(noscript) ? ` ("${noscript.slice(0, 80)}")` : ""
    }`;
  }
  return {
    challenge,
    javascriptOnly,
    links,
    textHash: createHash("sha256").update(visible).digest("hex"),
    textLength: visible.length,
    title,
  };
};
