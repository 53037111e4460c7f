import { XMLParser } from "fast-xml-parser";
import { formatTimestamp } from "../../parsing/media/transcript";
import { parseWebVtt, type Cue } from "../../parsing/media/subtitles";

/**
 * YouTube's data formats: the player response embedded in a watch page, and the caption track formats a
 * timedtext URL answers with (json3, srv3, the older srv1 "transcript" XML, WebVTT). Everything becomes cues,
 * stored as WebVTT so the snapshot is parsed by the same subtitle parser as an uploaded .vtt file.
 */

export type CaptionTrack = {
  baseUrl: string;
  languageCode: string;
  name: string;
  /** "asr" for automatic captions. */
  kind: string | null;
  isTranslatable: boolean;
};

export type PlayerResponse = {
  playabilityStatus?: {
    status?: string;
    reason?: string;
    errorScreen?: { playerErrorMessageRenderer?: { subreason?: { runs?: { text?: string }[]; simpleText?: string } } };
  };
  videoDetails?: { videoId?: string; title?: string; author?: string; channelId?: string; lengthSeconds?: string };
  captions?: {
    playerCaptionsTracklistRenderer?: {
      captionTracks?: {
        baseUrl?: string;
        languageCode?: string;
        name?: { simpleText?: string; runs?: { text?: string }[] };
        kind?: string;
        isTranslatable?: boolean;
      }[];
    };
  };
};

/** The JSON object assigned to `name` in a page's script (balanced braces, strings and escapes respected). */
export const extractAssignedJson = (html: string, name: string): unknown => {
  const at = html.search(new RegExp(`\\b${name}\\s*=\\s*\\{`));
  if (at < 0) return null;
  const start = html.indexOf("{", at);
  let depth = 0;
  let inString = false;
  for (let i = start; i < html.length; i++) {
    const c = html[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      try {
        return JSON.parse(html.slice(start, i + 1));
      } catch {
        return null;
      }
    }
  }
  return null;
};

export const tracksOf = (player: PlayerResponse | null): CaptionTrack[] =>
  (player?.captions?.playerCaptionsTracklistRenderer?.captionTracks ?? [])
    .filter((t) => typeof t.baseUrl === "string" && typeof t.languageCode === "string")
    .map((t) => ({
      baseUrl: t.baseUrl!,
      languageCode: t.languageCode!,
      name: t.name?.simpleText ?? t.name?.runs?.map((r) => r.text ?? "").join("") ?? t.languageCode!,
      kind: t.kind ?? null,
      isTranslatable: t.isTranslatable === true,
    }));

const decode = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

const clean = (text: string) =>
  decode(text.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();

type Json3 = { events?: { tStartMs?: number; dDurationMs?: number; segs?: { utf8?: string }[] }[] };

const fromJson3 = (data: Json3): Cue[] =>
  (data.events ?? [])
    .filter((e) => e.segs && typeof e.tStartMs === "number")
    .map((e) => ({
      start: e.tStartMs! / 1000,
      end: (e.tStartMs! + (e.dDurationMs ?? 0)) / 1000,
      text: clean((e.segs ?? []).map((s) => s.utf8 ?? "").join("")),
    }))
    .filter((c) => c.text);

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

type XmlNode = Record<string, unknown> & { "#text"?: unknown };

const nodeText = (node: unknown): string => {
  if (node === null || node === undefined) return "";
  if (typeof node !== "object") return String(node);
  const n = node as XmlNode;
  const own = n["#text"] !== undefined ? String(n["#text"]) : "";
  const inner = asArray(n.s as unknown)
    .map(nodeText)
    .join("");
  return own + inner;
};

const fromXml = (xml: string): Cue[] => {
  // Entities are decoded by `clean` below: a DOCTYPE in the answer must not get to define (and multiply) any.
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", processEntities: false });
  const doc = parser.parse(xml) as { transcript?: { text?: unknown }; timedtext?: { body?: { p?: unknown } } };
  if (doc.transcript) {
    return asArray(doc.transcript.text as XmlNode[])
      .map((t) => {
        const start = Number(t["@start"] ?? 0);
        return { start, end: start + Number(t["@dur"] ?? 0), text: clean(nodeText(t)) };
      })
      .filter((c) => c.text);
  }
  return asArray(doc.timedtext?.body?.p as XmlNode[])
    .map((p) => {
      const start = Number(p["@t"] ?? 0) / 1000;
      return { start, end: start + Number(p["@d"] ?? 0) / 1000, text: clean(nodeText(p)) };
    })
    .filter((c) => c.text);
};

/** Cues from whatever format a caption URL answered with; [] for an empty or unknown body. */
export const parseCaptionTrack = (body: string): Cue[] => {
  const text = body.replace(/^\uFEFF/, "").trim();
  if (!text) return [];
  if (text.startsWith("{")) {
    try {
      return fromJson3(JSON.parse(text) as Json3);
    } catch {
      return [];
    }
  }
  if (text.startsWith("WEBVTT")) return parseWebVtt(text);
  if (text.startsWith("<")) {
    try {
      return fromXml(text);
    } catch {
      return [];
    }
  }
  return [];
};

/** Cues as a WebVTT document (what the snapshot keeps). */
export const toWebVtt = (cues: Cue[]) =>
  `WEBVTT\n\n${cues
    .map(
      (c) =>
        `${formatTimestamp(c.start)} --> ${formatTimestamp(Math.max(c.end, c.start))}\n${c.text.replace(/\n+/g, " ").replace(/-->/g, "→")}`,
    )
    .join("\n\n")}\n`;
