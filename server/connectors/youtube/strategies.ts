import { AppError, errorMessage } from "../../errors";
import type { YoutubeOrigin } from "../origin";
import type { AcquireContext } from "../types";
import { extractAssignedJson, parseCaptionTrack, tracksOf, type CaptionTrack, type PlayerResponse } from "./captions";
import { Attempts, chooseTrack, playability, type Problem } from "./tracks";

/**
 * The ways of reaching a video's captions, tried in turn by acquireYoutube (index.ts): the watch page, the player API
 * as the Android app calls it, the older timedtext endpoint. Each notes why it failed in the session's attempts.
 */

const BROWSER_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ANDROID = { clientName: "ANDROID", clientVersion: "20.10.38", androidSdkVersion: 34 };
const ANDROID_UA = `com.google.android.youtube/${ANDROID.clientVersion} (Linux; U; Android 14) gzip`;
const withFormat = (url: string, fmt: string) => {
  const u = new URL(url);
  u.searchParams.set("fmt", fmt);
  return u.href;
};

/** One video's caption hunt: what the strategies share and what they learn on the way. */
export type CaptionSession = {
  origin: YoutubeOrigin;
  ctx: AcquireContext;
  /** YOUTUBE_BASE_URL without its trailing slash. */
  base: string;
  attempts: Attempts;
  details?: PlayerResponse["videoDetails"];
  /** The watch page's API key, which the player API call then uses. */
  apiKey: string | null;
};

const browser = { "user-agent": BROWSER_UA, "accept-language": "en-US,en;q=0.9", cookie: "CONSENT=YES+cb; SOCS=CAI" };

const getText = async (
  session: CaptionSession,
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
) => {
  const response = await session.ctx.fetcher.fetchBytes(url, {
    ...init,
    maxBytes: 20 * 1024 * 1024,
    timeoutMs: 60_000,
  });
  return { status: response.status, text: response.bytes.toString("utf8") };
};

/** Fetches a chosen track; cues, or null after noting why not. */
const readTrack = async (
  session: CaptionSession,
  strategy: string,
  tracks: CaptionTrack[],
  emptyMeans: Problem = "token",
) => {
  const { attempts } = session;
  if (tracks.length === 0) {
    attempts.note(strategy, "no caption tracks listed", "no-captions");
    return null;
  }
  const chosen = chooseTrack(tracks, session.origin.language);
  if (!chosen) return null;
  if (/[?&]exp=xpe\b/.test(chosen.track.baseUrl)) {
    attempts.note(strategy, "the caption URL requires a proof-of-origin token (exp=xpe)", "token");
    return null;
  }
  const { status, text } = await getText(session, withFormat(chosen.track.baseUrl, "json3"), { headers: browser });
  if (status === 429) {
    attempts.note(strategy, "the caption request was answered with HTTP 429 Too Many Requests", "blocked");
    return null;
  }
  if (status >= 400) {
    attempts.note(strategy, `the caption request was answered with HTTP ${status}`, "other");
    return null;
  }
  if (!text.trim()) {
    attempts.note(
      strategy,
      emptyMeans === "token"
        ? "the caption URL answered with an empty body (a proof-of-origin token is required)"
        : "no captions in this language",
      emptyMeans,
    );
    return null;
  }
  const cues = parseCaptionTrack(text);
  if (cues.length === 0) {
    attempts.note(strategy, "the caption track holds no text", "other");
    return null;
  }
  attempts.note(strategy, `read ${cues.length} captions (${chosen.language}, ${chosen.kind})`);
  return { cues, ...chosen, strategy };
};

export type CaptionsRead = NonNullable<Awaited<ReturnType<typeof readTrack>>>;

const tryStrategy = async (
  session: CaptionSession,
  strategy: string,
  run: () => Promise<CaptionsRead | null>,
): Promise<CaptionsRead | null> => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.code === "BAD_REQUEST") throw error; // a refused destination
    session.attempts.note(strategy, errorMessage(error), "other");
    return null;
  }
};

export const watchPage = (session: CaptionSession) =>
  tryStrategy(session, "watch page", async () => {
    const { base, attempts } = session;
    const id = session.origin.videoId;
    let page = await getText(session, `${base}/watch?v=${id}&hl=en&has_verified=1&bpctr=9999999999`, {
      headers: browser,
    });
    const consent = /name="v" value="([^"]*)"/.exec(page.text);
    if (page.text.includes('action="https://consent.youtube.com/s"') && consent) {
      page = await getText(session, `${base}/watch?v=${id}&hl=en`, {
        headers: { ...browser, cookie: `CONSENT=YES+${consent[1]}` },
      });
    }
    if (page.status === 429 || /class="g-recaptcha"/.test(page.text)) {
      attempts.note("watch page", page.status === 429 ? "HTTP 429 Too Many Requests" : "a CAPTCHA page", "blocked");
      return null;
    }
    if (page.status >= 400) {
      attempts.note("watch page", `HTTP ${page.status}`, page.status === 404 ? "unavailable" : "other");
      return null;
    }
    session.apiKey = /"INNERTUBE_API_KEY"\s*:\s*"([A-Za-z0-9_-]+)"/.exec(page.text)?.[1] ?? null;
    const player = extractAssignedJson(page.text, "ytInitialPlayerResponse") as PlayerResponse | null;
    session.details ??= player?.videoDetails;
    const problem = playability(player);
    if (problem) {
      attempts.note("watch page", problem.text, problem.problem);
      return null;
    }
    return readTrack(session, "watch page", tracksOf(player));
  });

export const playerApi = (session: CaptionSession) =>
  tryStrategy(session, "player API", async () => {
    const { base, apiKey, attempts } = session;
    const { status, text } = await getText(
      session,
      `${base}/youtubei/v1/player?prettyPrint=false${apiKey ? `&key=${apiKey}` : ""}`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": ANDROID_UA,
          "accept-language": "en-US,en;q=0.9",
        },
        body: JSON.stringify({
          context: { client: { ...ANDROID, hl: "en" } },
          videoId: session.origin.videoId,
          contentCheckOk: true,
          racyCheckOk: true,
        }),
      },
    );
    if (status === 429) {
      attempts.note("player API", "HTTP 429 Too Many Requests", "blocked");
      return null;
    }
    if (status >= 400) {
      attempts.note("player API", `HTTP ${status}`, "other");
      return null;
    }
    const player = JSON.parse(text) as PlayerResponse;
    session.details ??= player.videoDetails;
    const problem = playability(player);
    if (problem) {
      attempts.note("player API", problem.text, problem.problem);
      return null;
    }
    return readTrack(session, "player API", tracksOf(player));
  });

export const timedtext = (session: CaptionSession) =>
  tryStrategy(session, "timedtext", async () => {
    const { base, origin } = session;
    const id = origin.videoId;
    const lang = origin.language ?? "en";
    const listed = [
      {
        baseUrl: `${base}/api/timedtext?v=${id}&lang=${encodeURIComponent(lang)}`,
        languageCode: lang,
        name: lang,
        kind: null,
        isTranslatable: false,
      },
      {
        baseUrl: `${base}/api/timedtext?v=${id}&lang=${encodeURIComponent(lang)}&kind=asr`,
        languageCode: lang,
        name: lang,
        kind: "asr",
        isTranslatable: false,
      },
    ];
    for (const track of listed) {
      // Unlisted guesses: an empty answer here means "no such track" as often as "token needed".
      const read = await readTrack(session, "timedtext", [track], "no-captions");
      if (read) return read;
    }
    return null;
  });
