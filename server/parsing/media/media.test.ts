import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSpeechModel } from "@/server/providers/speech/client";
import { requireTool, runTool } from "@/server/parsing/system-tools";
import { textSimilarity } from "@/server/parsing/text-similarity";
import type { ParsedElement } from "@/server/parsing/types";
import {
  startFakeTranscriptionServer,
  type FakeCue,
  type FakeTranscriptionServer,
} from "@/server/testing/fake-transcription-server";
import { extractAudioChunks } from "./audio";
import { partitionDocument } from "../partition";
import { partitionMediaWith, type MediaOptions } from "./index";
import { parseWebVtt } from "./subtitles";
import { makeMedia, srt } from "./test-fixtures";
import { formatTimestamp, transcriptElements } from "./transcript";

const CORPUS = path.resolve(import.meta.dirname, "../../../../shared/corpus");
const KEY = "sk-fake-speech-key";

let fake: FakeTranscriptionServer;
let transcript: FakeCue[] = [];
let language = "english";

beforeAll(async () => {
  // The fixture is read per request, so each test sets the transcript it wants served.
  fake = await startFakeTranscriptionServer({
    apiKey: KEY,
    get language() {
      return language;
    },
    get transcript() {
      return transcript;
    },
  });
});
afterAll(() => fake?.close());

const provider = () => createSpeechModel({ baseUrl: fake.baseUrl, apiKey: KEY, model: "whisper-1" });

const parse = (bytes: Buffer, ext: string, options: MediaOptions = {}) =>
  partitionMediaWith({ bytes, fileName: `clip.${ext}`, fileType: ext, method: "basic" }, options);

/** Serve these cues, from a fresh recording. */
const serve = (cues: FakeCue[], spoken = "english") => {
  transcript = cues;
  language = spoken;
  fake.reset();
};

const lastEnd = (elements: ParsedElement[]) => Number(elements.at(-1)?.metadata?.end);

const quarryTempDirs = async () => (await readdir(os.tmpdir())).filter((n) => n.startsWith("quarry-media-"));

describe("WebVTT cues", () => {
  it("reads timings with and without hours, skips header/NOTE/STYLE blocks, strips markup and entities", () => {
    const cues = parseWebVtt(
      [
        "\uFEFFWEBVTT - a title",
        "",
        "NOTE a comment",
        "spanning lines",
        "",
        "STYLE",
        "::cue { color: red }",
        "",
        "intro",
        "00:00.500 --> 00:02.250 align:start position:10%",
        "<v Roger>Hello <i>world</i> &amp; &lt;friends&gt;</v>",
        "second line",
        "",
        "01:02:03.004 --> 01:02:05.000",
        "<c.yellow>Late</c> <00:01:02.500>words&nbsp;here",
        "",
        "00:00:10,000 --> 00:00:11,000",
        "{\\an8}SRT-style comma",
        "",
        "00:00:11.000 --> 00:00:11.000",
        "",
      ].join("\r\n"),
    );
    expect(cues).toEqual([
      { start: 0.5, end: 2.25, text: "Hello world & <friends> second line" },
      { start: 3723.004, end: 3725, text: "Late words here" },
      { start: 10, end: 11, text: "SRT-style comma" },
    ]);
  });

  it("keeps a repeated roll-up caption once, stretched over both times", () => {
    const cues = parseWebVtt(
      "WEBVTT\n\n00:01.000 --> 00:02.000\nSame\n\n00:02.000 --> 00:03.000\nSame\n\n00:03.000 --> 00:04.000\nNext\n",
    );
    expect(cues).toEqual([
      { start: 1, end: 3, text: "Same" },
      { start: 3, end: 4, text: "Next" },
    ]);
  });
});

describe("transcript paragraphs", () => {
  it("formats HH:MM:SS.mmm", () => {
    expect(formatTimestamp(0)).toBe("00:00:00.000");
    expect(formatTimestamp(3725.5)).toBe("01:02:05.500");
    expect(formatTimestamp(59.9996)).toBe("00:01:00.000");
    expect(formatTimestamp(21599.001)).toBe("05:59:59.001");
  });

  it("joins segments until a pause over 1.5 s, ~500 characters or a sentence end past 300, or a language change", () => {
    const seg = (start: number, end: number, text: string, language: string | null = "en") => ({
      start,
      end,
      text,
      language,
    });
    const long = "word ".repeat(70).trim(); // 349 chars
    const elements = transcriptElements(
      [
        seg(0, 1, " Hello there,"),
        seg(1.2, 2, "general Kenobi."),
        seg(4, 5, "After a pause."), // 2 s gap
        seg(5, 6, long),
        seg(6, 7, long), // would pass 500
        seg(7, 8, "and the end."),
        seg(8, 9, "Après."),
        seg(9, 10, "Changement de langue.", "fr"),
      ],
      { transcript_source: "speech" },
    );
    expect(elements.map((e) => e.text)).toEqual([
      "Hello there, general Kenobi.",
      `After a pause. ${long}`,
      `${long} and the end.`,
      "Après.",
      "Changement de langue.",
    ]);
    expect(elements[0]).toMatchObject({
      type: "NarrativeText",
      pageNumber: null,
      metadata: {
        start: 0,
        end: 2,
        start_time: "00:00:00.000",
        end_time: "00:00:02.000",
        language: "en",
        segment_count: 2,
        transcript_source: "speech",
      },
    });
    expect(elements[4]!.metadata).toMatchObject({ language: "fr", start: 9, end: 10 });
  });
});

describe("media with a speech provider (fake OpenAI-compatible server)", () => {
  const ONE_SECOND: FakeCue[] = [{ start: 0.1, end: 0.9, text: "Testing one two three." }];
  const FORMATS: { ext: string; video?: "mpeg4" | "libvpx" }[] = [
    { ext: "mp3" },
    { ext: "wav" },
    { ext: "m4a" },
    { ext: "ogg" },
    { ext: "flac" },
    { ext: "mp4", video: "mpeg4" },
    { ext: "mov", video: "mpeg4" },
    { ext: "avi", video: "mpeg4" },
    { ext: "mkv", video: "mpeg4" },
    { ext: "webm", video: "libvpx" },
  ];

  it.each(FORMATS)("transcribes a generated .$ext file", async ({ ext, video }) => {
    const bytes = await makeMedia({ ext, video, seconds: 1 });
    serve(ONE_SECOND);
    const result = await parse(bytes, ext, { speech: provider() });
    expect(result.totalPages).toBeNull();
    expect(result.warnings).toEqual([]);
    expect(result.elements).toHaveLength(1);
    expect(result.elements[0]).toMatchObject({
      type: "NarrativeText",
      text: "Testing one two three.",
      pageNumber: null,
      metadata: {
        start: 0.1,
        end: 0.9,
        start_time: "00:00:00.100",
        end_time: "00:00:00.900",
        language: "en",
        transcript_source: "speech",
        speech_model: "whisper-1",
      },
    });
    // What went over the wire: one mono 16 kHz MP3 as long as the source.
    expect(fake.uploads).toHaveLength(1);
    expect(fake.uploads[0]).toMatchObject({ codec: "mp3", sampleRate: 16000, channels: 1, model: "whisper-1" });
    expect(fake.uploads[0]!.duration).toBeGreaterThan(0.9);
    expect(fake.uploads[0]!.duration).toBeLessThan(1.3);
  });

  it("splits long audio into parts and puts every segment back at its place in the recording", async () => {
    const bytes = await makeMedia({ ext: "mp3", seconds: 10 });
    const cues: FakeCue[] = Array.from({ length: 9 }, (_, i) => ({
      start: i + 0.2,
      end: i + 0.8,
      text: `Sentence number ${i + 1}.`,
    }));
    serve(cues);
    const result = await parse(bytes, "mp3", { speech: provider(), chunkSeconds: 4 });
    // 10 s in parts of ≤ 4 s: three parts of ~3.3 s, not 4 + 4 + a short tail.
    expect(fake.uploads.map((u) => Math.round(u.duration))).toEqual([4, 4, 3]);
    expect(fake.uploads[1]!.prompt).toMatch(/Sentence number \d\.$/);
    const text = result.elements.map((e) => e.text).join(" ");
    expect(text).toBe(cues.map((c) => c.text).join(" "));
    // Each cue came back relative to its part; offsets restore the original times (MP3 framing: ± 0.1 s).
    const starts = result.elements.map((e) => Number(e.metadata?.start));
    expect(starts[0]).toBeCloseTo(0.2, 1);
    expect(lastEnd(result.elements)).toBeGreaterThan(8.6);
    expect(lastEnd(result.elements)).toBeLessThan(9);
    for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThan(starts[i - 1]!);
  });

  it("is given its speech model by partitionDocument's caller", async () => {
    const bytes = await makeMedia({ ext: "wav", seconds: 1 });
    serve(ONE_SECOND);
    const speech = createSpeechModel({ baseUrl: fake.baseUrl, apiKey: KEY, model: "whisper-large-v3" });
    const result = await partitionDocument(
      { bytes, fileName: "a.wav", fileType: "wav", method: "auto" },
      { providers: { speech } },
    );
    expect(result.elements[0]?.metadata).toMatchObject({
      transcript_source: "speech",
      speech_model: "whisper-large-v3",
    });
    expect(fake.uploads[0]?.model).toBe("whisper-large-v3");
  });

  it("fails with the provider's status and message, without the key, and leaves no temp files", async () => {
    const bytes = await makeMedia({ ext: "mp3", seconds: 1 });
    serve(ONE_SECOND);
    const before = await quarryTempDirs();
    const wrongKey = "sk-this-one-is-wrong";
    const error = await parse(bytes, "mp3", {
      speech: createSpeechModel({ ...provider().config, apiKey: wrongKey }),
    }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/speech provider at 127\.0\.0\.1:\d+ failed: HTTP 401/);
    expect(error?.message).not.toContain(wrongKey);
    expect(await quarryTempDirs()).toEqual(before);
  });

  it("transcribes the audio of a file that also has subtitles", async () => {
    const bytes = await makeMedia({
      ext: "mkv",
      seconds: 1,
      subtitles: [{ srt: srt([{ start: 0, end: 1, text: "Subtitle words" }]), language: "eng" }],
    });
    serve(ONE_SECOND);
    const result = await parse(bytes, "mkv", { speech: provider() });
    expect(result.elements.map((e) => e.text)).toEqual(["Testing one two three."]);
    expect(result.elements[0]?.metadata?.transcript_source).toBe("speech");
  });
});

describe("media without a speech provider", () => {
  it("reads the English subtitle track of an mkv and says which track it used", async () => {
    const bytes = await makeMedia({
      ext: "mkv",
      seconds: 2,
      subtitles: [
        { srt: srt([{ start: 0.2, end: 0.9, text: "Bonjour à tous" }]), language: "fre", default: true },
        {
          srt: srt([
            { start: 0.2, end: 0.9, text: "Hello <i>everyone</i>" },
            { start: 1.0, end: 1.8, text: "and welcome." },
          ]),
          language: "eng",
          title: "English SDH",
        },
      ],
    });
    const result = await parse(bytes, "mkv", { speech: null });
    expect(result.elements).toHaveLength(1);
    const [el] = result.elements;
    expect(el?.text).toBe("Hello everyone and welcome.");
    expect(el?.metadata).toMatchObject({
      transcript_source: "subtitles",
      language: "en",
      subtitle_track: { index: 1, language: "en", codec: "subrip", title: "English SDH" },
      start_time: "00:00:00.200",
      end_time: "00:00:01.800",
    });
    expect(Number(el?.metadata?.start)).toBeCloseTo(0.2, 1);
    expect(result.warnings).toEqual([
      "The transcript comes from subtitle track #2 (en, subrip) of 2",
      "The audio itself was not transcribed: no speech provider is set (SPEECH_BASE_URL)",
    ]);
  });

  it("prefers the default track when none is English, and skips forced tracks", async () => {
    const bytes = await makeMedia({
      ext: "mkv",
      seconds: 1,
      audio: null,
      subtitles: [
        { srt: srt([{ start: 0, end: 1, text: "Nur Schilder" }]), language: "ger", forced: true },
        { srt: srt([{ start: 0, end: 1, text: "Hola" }]), language: "spa" },
        { srt: srt([{ start: 0, end: 1, text: "Bonjour" }]), language: "fre", default: true },
      ],
    });
    const result = await parse(bytes, "mkv", { speech: null });
    expect(result.elements.map((e) => e.text)).toEqual(["Bonjour"]);
    expect(result.elements[0]?.metadata?.language).toBe("fr");
    expect(result.warnings).toEqual(["The transcript comes from subtitle track #3 (fr, subrip) of 3"]);
  });

  it("reads a mov_text track of an mp4 (and uses subtitles when a file has no audio, even with a provider)", async () => {
    const bytes = await makeMedia({
      ext: "mp4",
      seconds: 2,
      video: "mpeg4",
      audio: null,
      subtitleCodec: "mov_text",
      subtitles: [{ srt: srt([{ start: 0.5, end: 1.5, text: "Timed text in an MP4" }]), language: "eng" }],
    });
    const result = await parse(bytes, "mp4", { speech: provider() });
    expect(result.elements.map((e) => e.text)).toEqual(["Timed text in an MP4"]);
    expect(result.elements[0]?.metadata).toMatchObject({
      transcript_source: "subtitles",
      start_time: "00:00:00.500",
      end_time: "00:00:01.500",
      subtitle_track: { codec: "mov_text" },
    });
  });

  it("asks for a speech provider when there is audio and no subtitle track", async () => {
    const bytes = await makeMedia({ ext: "mp3", seconds: 1 });
    await expect(parse(bytes, "mp3", { speech: null })).rejects.toThrow(
      /Transcribing \.mp3 files needs a speech provider: set SPEECH_BASE_URL .*no subtitle track/,
    );
  });
});

describe("media that cannot be transcribed", () => {
  it("refuses bytes that are not media, a truncated file and an empty one", async () => {
    const garbage = await parse(Buffer.from("definitely not a video file"), "mp4", { speech: null }).then(
      () => null,
      (e: Error) => e,
    );
    expect(garbage?.message).toMatch(
      /^The \.mp4 file is not a readable media file \(.*Invalid data found when processing input\)$/,
    );
    expect(garbage?.message).not.toMatch(/quarry-media-|input\.mp4/);
    const whole = await makeMedia({ ext: "mp4", video: "mpeg4", seconds: 1 });
    const error = await parse(whole.subarray(0, 600), "mp4", { speech: provider() }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /^The \.mp4 file is not a readable media file \(|^The audio of the \.mp4 file could not be decoded/,
    );
    expect(error?.message).not.toContain(os.tmpdir());
    await expect(parse(Buffer.alloc(0), "wav")).rejects.toThrow("The .wav file is empty");
  });

  it("refuses a playlist posing as a video (it could make ffmpeg read other files)", async () => {
    const playlist = Buffer.from("#EXTM3U\n#EXTINF:10,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n");
    await expect(parse(playlist, "mp4", { speech: provider() })).rejects.toThrow(/not a readable media file/);
    const concat = Buffer.from("ffconcat version 1.0\nfile /etc/hostname\n");
    await expect(parse(concat, "mkv", { speech: provider() })).rejects.toThrow(/not a readable media file/);
  });

  it("refuses a video without audio or subtitles", async () => {
    const bytes = await makeMedia({ ext: "mp4", video: "mpeg4", audio: null, seconds: 1 });
    await expect(parse(bytes, "mp4", { speech: provider() })).rejects.toThrow(
      "The .mp4 file has no audio track and no subtitle track, so there is nothing to transcribe",
    );
  });

  it("refuses recordings longer than 6 hours", async () => {
    // A one-second tone with a subtitle at 7 h: the container says 7 h, the file is a kilobyte.
    const bytes = await makeMedia({
      ext: "mkv",
      seconds: 1,
      subtitles: [{ srt: srt([{ start: 7 * 3600, end: 7 * 3600 + 1, text: "Late" }]) }],
    });
    await expect(parse(bytes, "mkv", { speech: provider() })).rejects.toThrow(
      "The .mkv file is 7 h 0 min long; Quarry transcribes recordings of up to 6 hours",
    );
  });
});

describe.runIf(existsSync(CORPUS))("corpus media", () => {
  const corpus = (name: string) => readFile(path.join(CORPUS, name));

  const probeDuration = async (file: string) => {
    const ffprobe = await requireTool("ffprobe", "test");
    const { stdout } = await runTool(
      ffprobe,
      ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file],
      {
        timeoutMs: 10_000,
        what: "probe",
      },
    );
    return Number(stdout.toString().trim());
  };

  it.each(["apollo11.mp3", "bonjour.wav", "chaplin.mp4", "big_buck_bunny_432_433.webm"])(
    "transcribes %s through the provider",
    async (name) => {
      const duration = await probeDuration(path.join(CORPUS, name));
      // A line every 3 s across the recording (no real transcript of these files exists here).
      const cues: FakeCue[] = [];
      for (let t = 0; t < duration - 0.3; t += 3) {
        cues.push({ start: t, end: Math.min(t + 2.5, duration), text: `Line at ${t} seconds.` });
      }
      serve(cues);
      const started = performance.now();
      const result = await parse(await corpus(name), path.extname(name).slice(1), { speech: provider() });
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${name}: ${duration.toFixed(1)} s of audio → ${result.elements.length} elements in ${seconds.toFixed(2)} s`,
      );
      expect(result.elements.map((e) => e.text).join(" ")).toBe(cues.map((c) => c.text).join(" "));
      expect(fake.uploads).toHaveLength(1);
      expect(fake.uploads[0]).toMatchObject({ codec: "mp3", sampleRate: 16000, channels: 1 });
      expect(Math.abs(fake.uploads[0]!.duration - duration)).toBeLessThan(0.2);
      expect(lastEnd(result.elements)).toBeLessThanOrEqual(duration + 0.1);
      expect(lastEnd(result.elements)).toBeGreaterThan(duration - 3);
    },
  );

  it("smartphone.mp3: the 89 cues of its transcript come back in order, ending near 177 s", async () => {
    const vtt = await readFile(path.join(CORPUS, "smartphone.mp3_50.vtt"), "utf8");
    const cues = parseWebVtt(vtt);
    expect(cues).toHaveLength(89);
    serve(cues, "french");
    const result = await parse(await corpus("smartphone.mp3"), "mp3", { speech: provider() });
    const expected = cues.map((c) => c.text).join(" ");
    const ours = result.elements.map((e) => e.text).join(" ");
    const similarity = textSimilarity(ours, expected);
    console.log(
      `smartphone.mp3: ${result.elements.length} paragraphs from ${cues.length} cues, similarity ${similarity.toFixed(3)}`,
    );
    expect(ours).toBe(expected);
    expect(result.elements.reduce((n, e) => n + Number(e.metadata?.segment_count), 0)).toBe(89);
    expect(result.elements.length).toBeGreaterThan(3);
    expect(result.elements.length).toBeLessThan(30);
    expect(lastEnd(result.elements)).toBeCloseTo(177.42, 1);
    expect(result.elements.at(-1)?.metadata?.end_time).toBe("00:02:57.420");
    expect(result.elements[0]?.metadata).toMatchObject({ start: 0.38, start_time: "00:00:00.380", language: "fr" });
  });

  it("extracts a short file's audio as one chunk as long as the file", async () => {
    const ffmpeg = await requireTool("ffmpeg", "test");
    const { mkdtemp, rm } = await import("node:fs/promises");
    const dir = await mkdtemp(path.join(os.tmpdir(), "media-speed-"));
    try {
      for (const name of ["smartphone.mp3", "chaplin.mp4"]) {
        const file = path.join(CORPUS, name);
        const duration = await probeDuration(file);
        const chunks = await extractAudioChunks(ffmpeg, file, {
          dir,
          audioOrdinal: 0,
          duration,
          maxSeconds: 6 * 3600,
          chunkSeconds: 600,
          ext: path.extname(name).slice(1),
          fileName: name,
        });
        expect(chunks).toHaveLength(1);
        expect(chunks[0]!.start).toBe(0);
        expect(Math.abs(chunks[0]!.end - duration)).toBeLessThan(1);
        expect(await probeDuration(chunks[0]!.file)).toBeCloseTo(duration!, 0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("chaplin.mp4 without a provider: asks for one", async () => {
    await expect(parse(await corpus("chaplin.mp4"), "mp4", { speech: null })).rejects.toThrow(
      /^Transcribing \.mp4 files needs a speech provider: set SPEECH_BASE_URL/,
    );
  });
});
