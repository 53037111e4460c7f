import { env } from "../../env";
import { AppError, errorMessage } from "../../errors";
import type { YoutubeOrigin } from "../origin";
import { putSnapshotFile, writeManifest } from "../snapshot";
import type { Acquired, AcquireContext, Connector } from "../types";
import { Attempts, chooseTrack, playability, type Problem } from "./tracks";
import {
  extractAssignedJson,
  parseCaptionTrack,
  toWebVtt,
  tracksOf,
  type CaptionTrack,
  type PlayerResponse,
} from "./captions";

/**
 * The YouTube connector (POST /ingest-youtube): the captions of a public video, in the language asked for, else
 * in the video's original language. YouTube keeps closing doors (caption URLs of the web player need a
 * proof-of-origin token, data-centre addresses get the "not a bot" wall), so several strategies are tried in
 * turn: the watch page's player response, the player API as the Android app calls it, and the older timedtext
 * endpoint. When all fail, the build fails with the reason that tells the cases apart (no captions, blocked,
 * token needed, video unavailable) and the way out; an empty transcript is never stored.
 */

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const HOSTS = /^(?:www\.|m\.|music\.)?(?:youtube\.com|youtube-nocookie\.com)$/i;

/** The video id of a watch, shorts, embed, live or youtu.be URL; null for anything else. */
export const parseYoutubeUrl = (raw: string): string | null => {
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(raw.trim()) ? raw.trim() : `https://${raw.trim()}`);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  let id: string | null = null;
  if (/^youtu\.be$/i.test(url.hostname)) id = url.pathname.split("/")[1] ?? null;
  else if (HOSTS.test(url.hostname)) {
    const [first, second] = url.pathname.split("/").slice(1);
    if (first === "watch") id = url.searchParams.get("v");
    else if (["shorts", "embed", "live", "v", "e"].includes(first ?? "")) id = second ?? null;
  }
  return id && VIDEO_ID.test(id) ? id : null;
};

const BROWSER_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ANDROID = { clientName: "ANDROID", clientVersion: "20.10.38", androidSdkVersion: 34 };
const ANDROID_UA = `com.google.android.youtube/${ANDROID.clientVersion} (Linux; U; Android 14) gzip`;
const withFormat = (url: string, fmt: string) => {
  const u = new URL(url);
  u.searchParams.set("fmt", fmt);
  return u.href;
};

export const acquireYoutube = async (origin: YoutubeOrigin, ctx: AcquireContext): Promise<Acquired> => {
  const base = env.YOUTUBE_BASE_URL.replace(/\/+$/, "");
  const id = origin.videoId;
  const attempts = new Attempts();
  const browser = { "user-agent": BROWSER_UA, "accept-language": "en-US,en;q=0.9", cookie: "CONSENT=YES+cb; SOCS=CAI" };
  let details: PlayerResponse["videoDetails"] | undefined;

  const getText = async (
    url: string,
    init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  ) => {
    const response = await ctx.fetcher.fetchBytes(url, { ...init, maxBytes: 20 * 1024 * 1024, timeoutMs: 60_000 });
    return { status: response.status, text: response.bytes.toString("utf8") };
  };

  /** Fetches a chosen track; cues, or null after noting why not. */
  const readTrack = async (strategy: string, tracks: CaptionTrack[], emptyMeans: Problem = "token") => {
    if (tracks.length === 0) {
      attempts.note(strategy, "no caption tracks listed", "no-captions");
      return null;
    }
    const chosen = chooseTrack(tracks, origin.language);
    if (!chosen) return null;
    if (/[?&]exp=xpe\b/.test(chosen.track.baseUrl)) {
      attempts.note(strategy, "the caption URL requires a proof-of-origin token (exp=xpe)", "token");
      return null;
    }
    const { status, text } = await getText(withFormat(chosen.track.baseUrl, "json3"), { headers: browser });
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

  const tryStrategy = async (strategy: string, run: () => Promise<Awaited<ReturnType<typeof readTrack>>>) => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && error.code === "BAD_REQUEST") throw error; // a refused destination
      attempts.note(strategy, errorMessage(error), "other");
      return null;
    }
  };

  let apiKey: string | null = null;
  const watchPage = () =>
    tryStrategy("watch page", async () => {
      let page = await getText(`${base}/watch?v=${id}&hl=en&has_verified=1&bpctr=9999999999`, { headers: browser });
      const consent = /name="v" value="([^"]*)"/.exec(page.text);
      if (page.text.includes('action="https://consent.youtube.com/s"') && consent) {
        page = await getText(`${base}/watch?v=${id}&hl=en`, {
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
      apiKey = /"INNERTUBE_API_KEY"\s*:\s*"([A-Za-z0-9_-]+)"/.exec(page.text)?.[1] ?? null;
      const player = extractAssignedJson(page.text, "ytInitialPlayerResponse") as PlayerResponse | null;
      details ??= player?.videoDetails;
      const problem = playability(player);
      if (problem) {
        attempts.note("watch page", problem.text, problem.problem);
        return null;
      }
      return readTrack("watch page", tracksOf(player));
    });

  const playerApi = () =>
    tryStrategy("player API", async () => {
      const { status, text } = await getText(
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
            videoId: id,
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
      details ??= player.videoDetails;
      const problem = playability(player);
      if (problem) {
        attempts.note("player API", problem.text, problem.problem);
        return null;
      }
      return readTrack("player API", tracksOf(player));
    });

  const timedtext = () =>
    tryStrategy("timedtext", async () => {
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
        const read = await readTrack("timedtext", [track], "no-captions");
        if (read) return read;
      }
      return null;
    });

  const result = (await watchPage()) ?? (await playerApi()) ?? (await timedtext());
  const title = details?.title?.trim() || `YouTube video ${id}`;
  const channel = details?.author?.trim() || null;
  const report = {
    kind: "youtube",
    video_id: id,
    title,
    channel,
    channel_id: details?.channelId ?? null,
    length_seconds: details?.lengthSeconds ? Number(details.lengthSeconds) : null,
    requested_language: origin.language,
    language: result?.language ?? null,
    captions: result?.kind ?? null,
    strategy: result?.strategy ?? null,
    note: result?.note ?? null,
    attempts: attempts.log,
  };
  ctx.report.update(report);
  if (!result) throw attempts.failure(id);

  const vtt = Buffer.from(toWebVtt(result.cues), "utf8");
  await putSnapshotFile(ctx.folder, "captions.vtt", vtt);
  const key = await writeManifest(ctx.folder, {
    version: 1,
    buildId: ctx.buildId,
    acquiredAt: new Date().toISOString(),
    documents: [
      {
        file: "captions.vtt",
        size: vtt.length,
        name: `captions of ${origin.url}`,
        type: "vtt",
        title,
        pageNumber: null,
        metadata: {
          video_id: id,
          video_title: title,
          channel,
          url: `https://www.youtube.com/watch?v=${id}`,
          caption_language: result.language,
          captions: result.kind,
        },
      },
    ],
  });
  return { storageKey: key, fileType: "", fileSize: vtt.length, mimeType: "text/vtt", report };
};

export const youtubeConnector: Connector<"youtube"> = { kind: "youtube", acquire: acquireYoutube };
