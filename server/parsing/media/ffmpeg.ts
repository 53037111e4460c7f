import { AppError, errorMessage, isAppError } from "@/server/errors";

/**
 * Demuxers a media upload may use. Anything else is refused before it is read: playlists (hls, concat, ffconcat)
 * and image sequences can make ffmpeg open other files or URLs, and a "video" is never allowed to do that.
 */
const SAFE_FORMATS = [
  "mov",
  "mp4",
  "m4a",
  "3gp",
  "matroska",
  "webm",
  "mp3",
  "wav",
  "w64",
  "ogg",
  "flac",
  "avi",
  "aac",
  "asf",
  "mpegts",
  "mpeg",
  "aiff",
  "caf",
].join(",");

/** Options that go before `-i <file>` on every ffmpeg/ffprobe call: local files only, media demuxers only. */
export const safeInputArgs = (): string[] => ["-protocol_whitelist", "file", "-format_whitelist", SAFE_FORMATS];

/**
 * The reason ffmpeg gave, for a message a person reads: the temp file's path is replaced by the upload's name and
 * the runTool prefix ("… failed (exit code 1): ") is dropped.
 */
export const toolFailureDetail = (error: unknown, inputPath: string, fileName: string): string => {
  const message = errorMessage(error);
  if (/not on whitelist/i.test(message)) {
    const format = /\[([a-z0-9_,]+) @/i.exec(message)?.[1];
    return `its content is ${format ? `a ${format} file` : "a format"} that Quarry does not read as media`;
  }
  const detail = /failed \([^)]*\): ([\s\S]*)$/.exec(message)?.[1] ?? message;
  // runTool joins ffmpeg's last lines with spaces; its final line reads "<path>: <reason>".
  return detail
    .split(`${inputPath}: `)
    .join("; ")
    .split(inputPath)
    .join(fileName)
    .replace(/\[[^\]]+ @ 0x[0-9a-f]+\]\s*/gi, "")
    .replace(/^[;\s]+/, "")
    .replace(/\s+;/g, ";")
    .trim();
};

/** Whether runTool stopped the program for taking too long (those messages are already written for a person). */
export const isToolTimeout = (error: unknown): boolean => isAppError(error) && /took longer than/.test(error.message);

export const mediaError = (message: string) => new AppError("UNPROCESSABLE", message);
