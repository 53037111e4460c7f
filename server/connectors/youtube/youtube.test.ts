import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../../env";
import { AppError } from "../../errors";
import { parseWebVtt } from "../../parsing/media/subtitles";
import { fileStore } from "../../storage";
import { startYoutubeStandIn, type YoutubeStandIn } from "../../testing/youtube-stand-in";
import { createFetcher } from "../fetch";
import { readManifest } from "../snapshot";
import type { AcquireContext } from "../types";
import { parseCaptionTrack } from "./captions";
import { acquireYoutube, parseYoutubeUrl } from "./index";

/** The YouTube connector against a stand-in of YouTube (watch pages, player API, timedtext), real fetcher. */

let stand: YoutubeStandIn;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "quarry-youtube-"));
  setRuntimeEnv("QUARRY_DATA_DIR", dataDir);
  stand = await startYoutubeStandIn();
  setRuntimeEnv("YOUTUBE_BASE_URL", stand.origin);
});
afterAll(async () => {
  setRuntimeEnv("YOUTUBE_BASE_URL", "");
  await stand.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let n = 0;
const acquire = (videoId: string, language: string | null = null) => {
  n++;
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const ctx: AcquireContext = {
    buildId: id,
    projectId: "p",
    sourceId: "s",
    folder: `projects/p/sources/s/snapshot-${id}/`,
    report: { update: () => undefined, flush: async () => undefined },
    fetcher: createFetcher({ allowHosts: new Set([`127.0.0.1:${stand.port}`]) }),
  };
  return acquireYoutube({ kind: "youtube", url: `https://www.youtube.com/watch?v=${videoId}`, videoId, language }, ctx);
};

const storedCues = async (manifestKey: string) => {
  const manifest = await readManifest(manifestKey);
  const vtt = (await fileStore().read(manifestKey.replace("manifest.json", manifest.documents[0]!.file))).toString();
  return { manifest, cues: parseWebVtt(vtt) };
};

describe("YouTube URLs", () => {
  it("finds the video id in watch, short, embed, live and youtu.be links", () => {
    for (const url of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
      "https://www.youtube.com/embed/dQw4w9WgXcQ",
      "https://www.youtube.com/live/dQw4w9WgXcQ",
      "www.youtube.com/watch?v=dQw4w9WgXcQ",
    ]) {
      expect(parseYoutubeUrl(url), url).toBe("dQw4w9WgXcQ");
    }
    for (const bad of [
      "https://vimeo.com/123",
      "https://www.youtube.com/watch?v=short",
      "https://youtube.com/@channel",
      "ftp://youtu.be/dQw4w9WgXcQ",
    ]) {
      expect(parseYoutubeUrl(bad), bad).toBeNull();
    }
  });

  it("reads json3, srv3, srv1 and WebVTT caption tracks", () => {
    expect(
      parseCaptionTrack(
        '{"events":[{"tStartMs":1000,"dDurationMs":2000,"segs":[{"utf8":"Hello "},{"utf8":"quarry"}]}]}',
      ),
    ).toEqual([{ start: 1, end: 3, text: "Hello quarry" }]);
    expect(
      parseCaptionTrack('<timedtext format="3"><body><p t="1500" d="500">Cut &amp; split</p></body></timedtext>'),
    ).toEqual([{ start: 1.5, end: 2, text: "Cut & split" }]);
    expect(
      parseCaptionTrack(
        '<?xml version="1.0"?><transcript><text start="2.5" dur="1.25">It&#39;s granite</text></transcript>',
      ),
    ).toEqual([{ start: 2.5, end: 3.75, text: "It's granite" }]);
    expect(parseCaptionTrack("")).toEqual([]);
  });
});

describe("acquiring captions", () => {
  it("reads the watch page's track in the original language and records title and channel", async () => {
    const acquired = await acquire("GraniteCut1");
    const { manifest, cues } = await storedCues(acquired.storageKey);
    expect(cues[1]).toEqual({ start: 3.2, end: 6.8, text: "Today we cut a granite block with a diamond wire saw." });
    expect(manifest.documents[0]).toMatchObject({
      type: "vtt",
      title: "How a granite block is cut",
      metadata: { channel: "Stone Channel", captions: "manual" },
    });
    expect(acquired.report).toMatchObject({
      title: "How a granite block is cut",
      channel: "Stone Channel",
      language: "en",
      strategy: "watch page",
    });
  });

  it("takes the language asked for, and translates when the video lacks it", async () => {
    expect((await acquire("GraniteCut1", "de")).report).toMatchObject({ language: "de", captions: "manual" });
    const translated = await acquire("GraniteCut1", "fr");
    expect(translated.report).toMatchObject({ language: "fr", captions: "translated from en" });
    expect((await storedCues(translated.storageKey)).cues[0]!.text).toBe("[fr] Welcome back to the quarry.");
    // The web track needs a token; the Android client's track is translated instead.
    expect((await acquire("AndroidOnl1", "ja")).report).toMatchObject({ language: "ja", strategy: "player API" });
  });

  it("falls back to the Android player API when the web player's caption URLs need a token", async () => {
    const acquired = await acquire("AndroidOnl1");
    expect(acquired.report).toMatchObject({ strategy: "player API", captions: "auto-generated" });
    expect((acquired.report.attempts as { outcome: string }[])[0]!.outcome).toMatch(
      /proof-of-origin token \(exp=xpe\)/,
    );
    expect((await storedCues(acquired.storageKey)).cues).toHaveLength(2);
  });

  it("tells no captions, a token wall, a bot wall and a private video apart, each with the way out", async () => {
    const reason = async (id: string) => ((await acquire(id).catch((e: unknown) => e)) as AppError).message;
    const noCaptions = await reason("NoCaption01");
    expect(noCaptions).toMatch(
      /^The video has no captions \(video NoCaption01: no caption tracks listed; tried watch page, player API, timedtext\)/,
    );
    expect(await reason("TokenOnly01")).toMatch(
      /^YouTube serves this video's captions only with a proof-of-origin token/,
    );
    expect(await reason("BotWall0001")).toMatch(
      /^YouTube blocked the requests from this server \(video BotWall0001: HTTP 429 Too Many Requests/,
    );
    expect(await reason("PrivateVid1")).toMatch(
      /^YouTube says the video cannot be played \(video PrivateVid1: "This video is private"/,
    );
    expect(noCaptions).toMatch(
      /upload the video's audio \(POST \/ingest-file\) with a speech provider configured \(SPEECH_BASE_URL\), or upload its captions as a \.vtt or \.srt file$/,
    );
  });
});
