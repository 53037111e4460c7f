import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/**
 * YouTube as the captions connector meets it in 2026, on loopback: watch pages carrying `ytInitialPlayerResponse`
 * and `INNERTUBE_API_KEY`, the player API (`POST /youtubei/v1/player`), and timedtext caption URLs answering json3 or
 * srv3. The videos cover the cases that must be told apart:
 * - `GraniteCut1`: manual English and German captions plus automatic English ones (json3);
 * - `AndroidOnl1`: the web player's caption URLs need a proof-of-origin token (`exp=xpe`), the Android client's
 *   work (srv3 XML);
 * - `TokenOnly01`: every caption URL answers an empty body (what YouTube does without a `pot` parameter);
 * - `NoCaption01`: no captions at all;
 * - `BotWall0001`: "Sign in to confirm you're not a bot" and HTTP 429;
 * - `PrivateVid1`: a private video.
 */

type Caption = { lang: string; name: string; kind?: "asr"; cues: [number, number, string][] };
type Video = {
  title: string;
  author: string;
  captions: Caption[];
  webNeedsToken?: boolean;
  emptyTracks?: boolean;
  blocked?: boolean;
  private?: boolean;
};

const CUES_EN: [number, number, string][] = [
  [0.5, 3.2, "Welcome back to the quarry."],
  [3.2, 6.8, "Today we cut a granite block with a diamond wire saw."],
  [6.8, 9.9, "The wire runs at thirty metres per second,"],
  [9.9, 12.4, "and water keeps the dust down."],
  [15.0, 18.5, "After six hours the block comes free from the face."],
  [18.5, 22.0, "Feathers and wedges then split it into slabs."],
];
const CUES_DE: [number, number, string][] = [
  [0.5, 3.2, "Willkommen zurück im Steinbruch."],
  [3.2, 6.8, "Heute schneiden wir einen Granitblock mit einer Diamantseilsäge."],
];

export const VIDEOS: Record<string, Video> = {
  GraniteCut1: {
    title: "How a granite block is cut",
    author: "Stone Channel",
    captions: [
      { lang: "en", name: "English", cues: CUES_EN },
      { lang: "de", name: "Deutsch", cues: CUES_DE },
      {
        lang: "en",
        name: "English (auto-generated)",
        kind: "asr",
        cues: CUES_EN.map(([s, e, t]) => [s, e, t.toLowerCase()]),
      },
    ],
  },
  AndroidOnl1: {
    title: "Splitting slabs with feathers and wedges",
    author: "Stone Channel",
    webNeedsToken: true,
    captions: [{ lang: "en", name: "English (auto-generated)", kind: "asr", cues: CUES_EN.slice(4) }],
  },
  TokenOnly01: {
    title: "Marble polishing",
    author: "Stone Channel",
    emptyTracks: true,
    captions: [{ lang: "en", name: "English", cues: CUES_EN }],
  },
  NoCaption01: { title: "Quarry ambience, no talking", author: "Stone Channel", captions: [] },
  BotWall0001: {
    title: "Blasting day",
    author: "Stone Channel",
    blocked: true,
    captions: [{ lang: "en", name: "English", cues: CUES_EN }],
  },
  PrivateVid1: { title: "Unlisted crew meeting", author: "Stone Channel", private: true, captions: [] },
};

export type YoutubeStandIn = { origin: string; port: number; requests: string[]; close: () => Promise<void> };

const API_KEY = "AIzaSyStandInKey_0123456789abcdefghijk";

type Cue = [number, number, string];
type Client = "web" | "android";

const trackUrl = (origin: string, id: string, c: Caption, client: Client) => {
  const params = new URLSearchParams({
    v: id,
    ei: "a1b2c3",
    caps: "asr",
    opi: "112496729",
    xoaf: "5",
    hl: "en",
    ip: "0.0.0.0",
    ipbits: "0",
    expire: "1893456000",
    sparams: "ip,ipbits,expire,v,ei,caps,opi,xoaf",
    signature: "0A1B2C",
    key: "yt8",
    lang: c.lang,
  });
  if (c.kind) params.set("kind", c.kind);
  if (client === "web" && VIDEOS[id]?.webNeedsToken) params.set("exp", "xpe");
  params.set("client", client);
  return `${origin}/api/timedtext?${params.toString()}`;
};

const captionsOf = (origin: string, id: string, video: Video, client: Client) => ({
  captions: {
    playerCaptionsTracklistRenderer: {
      captionTracks: video.captions.map((c) => ({
        baseUrl: trackUrl(origin, id, c, client),
        name: { simpleText: c.name },
        vssId: `${c.kind === "asr" ? "a" : ""}.${c.lang}`,
        languageCode: c.lang,
        ...(c.kind ? { kind: c.kind } : {}),
        isTranslatable: true,
        trackName: "",
      })),
      audioTracks: [{ captionTrackIndices: [0] }],
      translationLanguages: [{ languageCode: "fr", languageName: { simpleText: "French" } }],
      defaultAudioTrackIndex: 0,
    },
  },
});

const playerResponse = (origin: string, id: string, client: Client) => {
  const video = VIDEOS[id];
  if (!video) {
    return { playabilityStatus: { status: "ERROR", reason: "This video is unavailable" } };
  }
  if (video.private) {
    return {
      playabilityStatus: {
        status: "LOGIN_REQUIRED",
        reason: "This video is private",
        errorScreen: {
          playerErrorMessageRenderer: {
            subreason: { simpleText: "If the owner of this video has granted you access, please sign in." },
          },
        },
      },
    };
  }
  if (video.blocked) {
    return { playabilityStatus: { status: "LOGIN_REQUIRED", reason: "Sign in to confirm you’re not a bot" } };
  }
  return {
    responseContext: { visitorData: "CgtzdGFuZC1pbg%3D%3D" },
    playabilityStatus: { status: "OK", playableInEmbed: true },
    videoDetails: {
      videoId: id,
      title: video.title,
      lengthSeconds: "22",
      channelId: "UCst0neChannel000000000",
      author: video.author,
      isPrivate: false,
    },
    ...(video.captions.length ? captionsOf(origin, id, video, client) : {}),
  };
};

const watchPage = (
  origin: string,
  id: string,
) => `<!DOCTYPE html><html lang="en-US" dir="ltr"><head><title>${VIDEOS[id]?.title ?? "YouTube"} - YouTube</title>
<script nonce="n0nce">var ytcfg={};ytcfg.set({"INNERTUBE_API_KEY":"${API_KEY}","INNERTUBE_CLIENT_NAME":"WEB","INNERTUBE_CLIENT_VERSION":"2.20261101.00.00","HL":"en"});</script>
</head><body><div id="player"></div>
<script nonce="n0nce">var ytInitialPlayerResponse = ${JSON.stringify(playerResponse(origin, id, "web"))};var meta = document.createElement('meta');</script>
<script nonce="n0nce">var ytInitialData = {"contents":{}};</script></body></html>`;

const json3 = (cues: Cue[]) =>
  JSON.stringify({
    wireMagic: "pb3",
    pens: [{}],
    events: [
      { tStartMs: 0, dDurationMs: 22000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
      ...cues.map(([s, e, t]) => ({
        tStartMs: Math.round(s * 1000),
        dDurationMs: Math.round((e - s) * 1000),
        wWinId: 1,
        segs: [{ utf8: t }],
      })),
    ],
  });

const srv3 = (cues: Cue[]) =>
  `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>${cues
    .map(
      ([s, e, t]) => `<p t="${Math.round(s * 1000)}" d="${Math.round((e - s) * 1000)}">${t.replace(/&/g, "&amp;")}</p>`,
    )
    .join("")}</body></timedtext>`;

const serveWatchPage = (origin: string, url: URL, res: ServerResponse) => {
  const id = url.searchParams.get("v") ?? "";
  if (VIDEOS[id]?.blocked)
    return res
      .writeHead(429, { "content-type": "text/html" })
      .end('<html><body><form action="/das_captcha"><div class="g-recaptcha"></div></form></body></html>');
  return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(watchPage(origin, id));
};

const servePlayer = async (origin: string, req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
    videoId?: string;
    context?: { client?: { clientName?: string } };
  };
  const client = body.context?.client?.clientName === "ANDROID" ? "android" : "web";
  return res
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify(playerResponse(origin, body.videoId ?? "", client)));
};

const serveTimedText = (url: URL, res: ServerResponse) => {
  const id = url.searchParams.get("v") ?? "";
  const video = VIDEOS[id];
  const lang = url.searchParams.get("tlang") ?? url.searchParams.get("lang");
  const kind = url.searchParams.get("kind");
  const caption = video?.captions.find((c) => c.lang === url.searchParams.get("lang") && (c.kind ?? null) === kind);
  // What YouTube does without a proof-of-origin token: 200 with nothing in it.
  if (
    !video ||
    !caption ||
    video.emptyTracks ||
    url.searchParams.get("exp") === "xpe" ||
    !url.searchParams.get("signature")
  ) {
    return res.writeHead(200, { "content-type": "text/html; charset=UTF-8" }).end("");
  }
  const cues = url.searchParams.get("tlang")
    ? caption.cues.map(([s, e, t]) => [s, e, `[${lang}] ${t}`] as Cue)
    : caption.cues;
  // The Android client's URLs answer srv3 whatever `fmt` asks for.
  if (url.searchParams.get("client") === "android")
    return res.writeHead(200, { "content-type": "text/xml; charset=UTF-8" }).end(srv3(cues));
  return res.writeHead(200, { "content-type": "application/json; charset=UTF-8" }).end(json3(cues));
};

/** Records the request, then hands it to the function for its path. */
const handle = async (origin: string, requests: string[], req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? "/", origin);
  requests.push(`${req.method} ${url.pathname}${url.search}`);
  if (url.pathname === "/watch") return serveWatchPage(origin, url, res);
  if (url.pathname === "/youtubei/v1/player" && req.method === "POST") return servePlayer(origin, req, res);
  if (url.pathname === "/api/timedtext") return serveTimedText(url, res);
  return res.writeHead(404, { "content-type": "text/html" }).end("<html><body>404</body></html>");
};

export const startYoutubeStandIn = async (): Promise<YoutubeStandIn> => {
  const requests: string[] = [];
  // Known once the server listens; no request arrives before that.
  let origin = "";
  const server = createServer((req, res) => void handle(origin, requests, req, res));
  const port = await new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
