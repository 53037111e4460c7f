/**
 * A failed build's stored reason, in words for the person who added the source. The stored reason is written for
 * whoever runs the server ("… install it with: apt-get install ffmpeg", "ENOTFOUND", "set SPEECH_BASE_URL"); the
 * dashboard shows the sentence below instead, and admins can open the stored text as details. Families are tried in
 * order, most specific first: a web page "skipped" because its host was not found is a host problem, not an empty
 * page. Every sentence says what happened and what the reader can do.
 */

type Family = { id: string; test: RegExp; message: string };

const FAMILIES: Family[] = [
  {
    id: "missing-tool",
    test: /which is not installed on this server/i,
    message:
      "This kind of file needs a program that is not installed on the server. Ask an administrator to install it, then reprocess the source.",
  },
  {
    id: "speech-provider",
    test: /needs a speech provider|no speech provider is set/i,
    message:
      "Audio and video are turned into text by a speech service, and none is set up. Ask an administrator to set one up, or upload the captions as a .vtt or .srt file.",
  },
  {
    id: "youtube",
    test: /YouTube|The video has no captions|The captions could not be read/i,
    message:
      "The video's captions could not be read: it may have none, or YouTube refused the request. Upload its captions as a .vtt or .srt file, or its audio, instead.",
  },
  {
    id: "refused-address",
    test: /^Refused to fetch|only public addresses are fetched/i,
    message:
      "Only public web addresses can be added, and this one points to a private network or to the server itself. Use a public address.",
  },
  {
    id: "host-not-found",
    test: /\bhost\b.*\b(was not found|has no address|could not be resolved)|ENOTFOUND|EAI_AGAIN/i,
    message:
      "The web address could not be reached: no site by that name was found. Check the address for typos and add it again.",
  },
  {
    id: "network",
    test: /Could not fetch .*: (the connection|the server (did not|stopped)|the host is unreachable|the network|the request was aborted|it took too long|TLS|more than \d+ redirects|it redirects)/i,
    message:
      "The website could not be reached: it refused or dropped the connection, or did not answer in time. Try again later, or check the address.",
  },
  {
    id: "github",
    test: /GitHub|The repository .* is private|The archive of .* could not be read|The repository archive/i,
    message:
      "The GitHub repository could not be read: it may not exist, be private, or GitHub may be limiting requests. Check the address (only public repositories can be added) and try again later.",
  },
  {
    id: "password",
    test: /is password-protected/i,
    message: "The file is password-protected. Remove the password, then upload it again.",
  },
  {
    id: "too-large",
    test: /exceeds the maximum size|expands to more than|ZIP bomb|more than the .* (MB|parts)|over the 25 MB|produced more (than|output)/i,
    message: "The file is larger or more complex than the server reads. Split it into smaller files and upload those.",
  },
  {
    id: "unsupported",
    test: /is not supported|Unsupported file type|image subtitle|subtitle tracks are images/i,
    message:
      "This type of file cannot be read. Convert it to a supported format (PDF, Word, text) and upload it again.",
  },
  {
    id: "nothing-read",
    test: /No text could be read|Nothing could be read|holds no|has no (worksheets|audio track)|nothing to transcribe|no text files/i,
    message:
      "No text was found in this source. If it is a scan or a page built by scripts, try another processing method, or upload a version that contains text.",
  },
  {
    id: "time",
    test: /ran out of time|took longer than|could not be read in time/i,
    message: "Reading this source took too long and was stopped. Try reprocessing it, or split it into smaller files.",
  },
  {
    id: "memory",
    test: /MB of memory|parser crashed|parse worker/i,
    message:
      "Reading this source needed more memory than the server allows, and was stopped. Split it into smaller files, or ask an administrator.",
  },
  {
    id: "model",
    test: /\bmodel\b|speech provider|Transcription by/i,
    message:
      "An AI model used to read or index this source did not answer as expected. Reprocess it later; if it keeps failing, ask an administrator.",
  },
  {
    id: "replaced",
    test: /newer build|no longer exists|no stored file/i,
    message: "This build was overtaken by a newer one, or its file is gone. Reprocess the source.",
  },
  {
    id: "schedule",
    test: /schedule/i,
    message: "The build could not be started. Reprocess the source to try again.",
  },
  {
    id: "damaged",
    test: /could not be (parsed|read|opened)|not a valid|damaged|not well-formed|DOCTYPE|not a readable|could not open it|did not produce/i,
    message:
      "The file could not be read: it may be damaged, or not really the type its name says. Open it on your computer to check, then upload it again.",
  },
];

/** The family ids, for tests that cover every one. */
export const FAILURE_FAMILIES = FAMILIES.map((f) => f.id);

const FALLBACK =
  "Processing failed. Reprocess the source to try again; if it fails again, an administrator can see why in the details.";

/** Which family a stored reason belongs to ("other" when none matches). */
export const failureFamily = (reason: string): string => FAMILIES.find((f) => f.test.test(reason))?.id ?? "other";

/** The sentence the dashboard shows for a stored failure reason. */
export const userFailureMessage = (reason: string | null): string =>
  (reason && FAMILIES.find((f) => f.test.test(reason))?.message) || FALLBACK;
