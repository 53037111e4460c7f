import { env } from "../../env";
import type { YoutubeOrigin } from "../origin";
import { putSnapshotFile, writeManifest } from "../snapshot";
import type { Acquired, AcquireContext, Connector } from "../types";
import { toWebVtt } from "./captions";
import { playerApi, timedtext, watchPage, type CaptionSession } from "./strategies";
import { Attempts } from "./tracks";

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

export const acquireYoutube = async (origin: YoutubeOrigin, ctx: AcquireContext): Promise<Acquired> => {
  const id = origin.videoId;
  const session: CaptionSession = {
    origin,
    ctx,
    base: env.YOUTUBE_BASE_URL.replace(/\/+$/, ""),
    attempts: new Attempts(),
    apiKey: null,
  };
  const result = (await watchPage(session)) ?? (await playerApi(session)) ?? (await timedtext(session));
  const { details, attempts } = session;
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
