import { AppError } from "../../errors";
import type { CaptionTrack, PlayerResponse } from "./captions";

/**
 * Choosing a video's caption track, and telling why none could be read: the cases a person must act on differently
 * (no captions, blocked, token needed, video unavailable) are kept apart, and the message ends with the way out.
 */

const BOT_WALL = /not a bot/i;
const WAY_OUT =
  "To ingest it anyway, upload the video's audio (POST /ingest-file) with a speech provider configured (SPEECH_BASE_URL), or upload its captions as a .vtt or .srt file";

export type Problem = "unavailable" | "blocked" | "token" | "no-captions" | "other";

/** What went wrong along the way; the most telling problem decides the final message. */
export class Attempts {
  readonly log: { strategy: string; outcome: string }[] = [];
  private readonly problems = new Map<Problem, string>();
  note(strategy: string, outcome: string, problem?: Problem) {
    this.log.push({ strategy, outcome });
    if (problem && !this.problems.has(problem)) this.problems.set(problem, outcome);
  }
  failure(videoId: string) {
    const order: [Problem, string][] = [
      ["unavailable", "YouTube says the video cannot be played"],
      ["blocked", "YouTube blocked the requests from this server"],
      ["token", "YouTube serves this video's captions only with a proof-of-origin token, which Quarry cannot produce"],
      ["no-captions", "The video has no captions"],
      ["other", "The captions could not be read"],
    ];
    const [problem, lead] = order.find(([p]) => this.problems.has(p)) ?? ["other", "The captions could not be read"];
    const detail = this.problems.get(problem);
    const tried = [...new Set(this.log.map((a) => a.strategy))].join(", ");
    return new AppError(
      "UNPROCESSABLE",
      `${lead} (video ${videoId}${detail ? `: ${detail}` : ""}; tried ${tried}). ${WAY_OUT}`,
    );
  }
}

/** A problem a player response reports, or null when the video plays. */
export const playability = (player: PlayerResponse | null): { problem: Problem; text: string } | null => {
  const status = player?.playabilityStatus?.status;
  if (!status || status === "OK") return null;
  const reason = player?.playabilityStatus?.reason ?? status;
  const sub = player?.playabilityStatus?.errorScreen?.playerErrorMessageRenderer?.subreason;
  const more = sub?.simpleText ?? sub?.runs?.map((r) => r.text ?? "").join("") ?? "";
  const text = `"${reason}"${more ? ` (${more})` : ""}`;
  return { problem: status === "LOGIN_REQUIRED" && BOT_WALL.test(reason) ? "blocked" : "unavailable", text };
};

/** The track to read: the language asked for (as written, then translated), else the original language. */
export const chooseTrack = (tracks: CaptionTrack[], wanted: string | null) => {
  const base = (code: string) => code.toLowerCase().split("-")[0];
  const manual = tracks.filter((t) => t.kind !== "asr");
  const auto = tracks.filter((t) => t.kind === "asr");
  const kindOf = (t: CaptionTrack) => (t.kind === "asr" ? "auto-generated" : "manual");
  // Automatic captions are made from the speech, so their language is the video's original one.
  const original = auto[0]?.languageCode ?? manual[0]?.languageCode ?? null;
  let note: string | null = null;
  if (wanted) {
    const hit =
      manual.find((t) => base(t.languageCode) === base(wanted)) ??
      auto.find((t) => base(t.languageCode) === base(wanted));
    if (hit) return { track: hit, language: hit.languageCode, kind: kindOf(hit), note };
    const source = [...manual, ...auto].find((t) => t.isTranslatable);
    if (source) {
      return {
        track: { ...source, baseUrl: `${source.baseUrl}&tlang=${encodeURIComponent(wanted)}` },
        language: wanted,
        kind: `translated from ${source.languageCode}`,
        note,
      };
    }
    note = `Captions in '${wanted}' are not available; the original language (${original ?? "unknown"}) was used`;
  }
  const track =
    manual.find((t) => original !== null && base(t.languageCode) === base(original)) ?? auto[0] ?? manual[0];
  return track ? { track, language: track.languageCode, kind: kindOf(track), note } : null;
};
