import { describe, expect, it } from "vitest";
import { missingToolMessage } from "../parsing/system-tools";
import { acquiredForRole } from "./acquired";
import { FAILURE_FAMILIES, failureFamily, userFailureMessage } from "./failure-message";

/** Reasons as the build code stores them (copied from where each is thrown), one or more per family. */
const SAMPLES: Record<string, string[]> = {
  "missing-tool": [
    missingToolMessage("ffmpeg", "Transcribing .mp3 files"),
    missingToolMessage("soffice", "Converting the .doc file"),
  ],
  "speech-provider": [
    "Transcribing .mp3 files needs a speech provider: set SPEECH_BASE_URL (and SPEECH_API_KEY) to an OpenAI- or Groq-compatible transcription API; this file has no subtitle track to use instead",
  ],
  youtube: [
    "The video has no captions (video abc123DEF45; tried watch page, innertube). To ingest it anyway, upload the video's audio (POST /ingest-file) with a speech provider configured (SPEECH_BASE_URL), or upload its captions as a .vtt or .srt file",
    'YouTube blocked the requests from this server (video abc: "Sign in to confirm you\'re not a bot"; tried watch page)',
  ],
  "refused-address": [
    "Refused to fetch http://127.0.0.1/: 127.0.0.1 is a loopback address; only public addresses are fetched",
  ],
  "host-not-found": [
    "Could not fetch http://no-such-host.invalid/: the host no-such-host.invalid was not found (ENOTFOUND)",
    "Nothing could be read from http://no-such-host.invalid/: the page was skipped: Could not fetch http://no-such-host.invalid/: the host was not found",
    "getaddrinfo EAI_AGAIN example.org",
  ],
  network: [
    "Could not fetch https://example.org/: the connection was refused",
    "Could not fetch https://example.org/: it took too long",
    "Could not fetch https://example.org/: TLS certificate problem (CERT_HAS_EXPIRED)",
  ],
  github: [
    "GitHub could not find acme/widgets: it does not exist or it is private (only public repositories can be ingested)",
    "GitHub's API rate limit is exhausted; it resets at 12:00",
  ],
  password: [
    "The PDF is password-protected; remove the password and upload it again",
    "The .docx file is password-protected (encrypted); remove the password in Office and upload it again",
  ],
  "too-large": [
    "File exceeds the maximum size of 100 MB",
    "The .xlsx file holds 300 MB of cell data, more than the 200 MB Quarry reads from a workbook; split it into smaller files",
    'The .docx file looks like a ZIP bomb: its part "word/document.xml" expands 900 times to 800 MB; it was not opened',
  ],
  unsupported: ["Parsing .xyz files is not supported", "Unsupported file type: .exe"],
  "nothing-read": [
    "No text could be read from this .pdf file: page 1 is blank",
    "The .mp4 file has no audio track and no subtitle track, so there is nothing to transcribe",
    "The .xlsx file has no worksheets",
  ],
  time: [
    "Parsing ran out of time after 1800 s (QUARRY_PARSE_TIMEOUT_S) while reading page 3",
    "Building ran out of time after 1800 s (QUARRY_PARSE_TIMEOUT_S) while embedding the chunks",
  ],
  memory: ["Parsing needed more than 1536 MB of memory and was stopped", "The parser crashed (SIGSEGV): boom"],
  model: [
    "The model gpt-4o-mini did not reply with JSON",
    "Transcription by the speech provider at api.example.com failed: HTTP 500",
  ],
  replaced: ["The build to index no longer exists; reprocess the source"],
  schedule: ["Could not schedule the build"],
  damaged: [
    "The file is not a readable PDF (not a PDF, or damaged beyond repair)",
    "The .pdf file could not be parsed: its content is damaged or uses a feature Quarry does not read",
    "The .docx file is not a valid Office document (it is damaged or not a ZIP package)",
    "Converting the .doc file failed: LibreOffice could not open it (the file may be damaged, password-protected or not really a .doc file)",
  ],
};

describe("userFailureMessage", () => {
  it("has samples for every family", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...FAILURE_FAMILIES].sort());
  });

  for (const [family, reasons] of Object.entries(SAMPLES)) {
    it(`puts ${family} reasons in their family, in words without operator detail`, () => {
      for (const reason of reasons) {
        expect(failureFamily(reason), reason).toBe(family);
        const message = userFailureMessage(reason);
        expect(message).not.toMatch(/ENOTFOUND|EAI_AGAIN|apt-get|SPEECH_BASE_URL|POST \/|QUARRY_|`/);
        expect(message).toMatch(/\.$/);
      }
    });
  }

  it("falls back to a plain sentence for anything else, and for no reason at all", () => {
    expect(failureFamily("Cannot read properties of undefined (reading 'x')")).toBe("other");
    expect(userFailureMessage("Cannot read properties of undefined (reading 'x')")).toMatch(/^Processing failed\./);
    expect(userFailureMessage(null)).toMatch(/^Processing failed\./);
    expect(userFailureMessage("")).toMatch(/^Processing failed\./);
  });
});

describe("acquiredForRole", () => {
  const report = {
    robots: "none (HTTP 404)",
    pages: [
      {
        url: "http://x.invalid/",
        status: "skipped",
        reason_code: "fetch_error",
        reason: "Could not fetch http://x.invalid/: the host was not found (ENOTFOUND)",
      },
      { url: "http://x.invalid/private", status: "skipped", reason_code: "robots", reason: "disallowed by robots.txt" },
    ],
  };

  it("puts a page that could not be fetched in the user's words for roles without details", () => {
    const seen = acquiredForRole(report, false) as typeof report;
    expect(seen.robots).toBe(report.robots);
    expect(seen.pages[0]!.reason).toBe(userFailureMessage(report.pages[0]!.reason));
    expect(seen.pages[1]!.reason).toBe("disallowed by robots.txt");
    expect(JSON.stringify(seen)).not.toMatch(/ENOTFOUND/);
  });

  it("leaves the report as it is for admins, and anything without pages alone", () => {
    expect(acquiredForRole(report, true)).toBe(report);
    expect(acquiredForRole(null, false)).toBeNull();
    const unreachable = {
      ...report,
      robots: "unreachable (Could not fetch x: ENOTFOUND): the site is treated as disallowed",
    };
    expect(acquiredForRole(unreachable, false)).toMatchObject({ robots: expect.not.stringMatching(/ENOTFOUND/) });
    expect(acquiredForRole({ repository: "a/b" }, false)).toEqual({ repository: "a/b" });
  });
});
