import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/server/errors";
import { duringStep } from "./parse-step";

/**
 * System programs that do a job far better than anything on npm (LibreOffice for legacy Office, ffmpeg for media).
 * They are found on PATH at run time, never assumed: a missing one fails the build with the package to install.
 */
export const SYSTEM_TOOLS = {
  soffice: { label: "LibreOffice", apt: "libreoffice-writer libreoffice-calc libreoffice-impress" },
  ffmpeg: { label: "ffmpeg", apt: "ffmpeg" },
  ffprobe: { label: "ffprobe (part of ffmpeg)", apt: "ffmpeg" },
  tesseract: { label: "Tesseract OCR", apt: "tesseract-ocr tesseract-ocr-eng" },
  pdftoppm: { label: "poppler-utils", apt: "poppler-utils" },
  pdftotext: { label: "poppler-utils", apt: "poppler-utils" },
} as const;

export type SystemToolName = keyof typeof SYSTEM_TOOLS;

const found = new Map<SystemToolName, Promise<string | null>>();

const isExecutable = async (file: string) => {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const search = async (name: SystemToolName): Promise<string | null> => {
  const override = process.env[`QUARRY_${name.toUpperCase()}_PATH`];
  if (override) return (await isExecutable(override)) ? override : null;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
};

/** The absolute path of a system tool, or null when it is not installed. Looked up once per process. */
export const findTool = (name: SystemToolName): Promise<string | null> => {
  let hit = found.get(name);
  if (!hit) {
    hit = search(name);
    found.set(name, hit);
  }
  return hit;
};

/** Forget earlier lookups (tests that change PATH). */
export const resetToolCache = () => found.clear();

/** "<forWhat> needs <label> (`<name>`), which is not installed on this server; install it with: apt-get install …" */
export const missingToolMessage = (name: SystemToolName, forWhat: string) => {
  const tool = SYSTEM_TOOLS[name];
  return `${forWhat} needs ${tool.label} (\`${name}\`), which is not installed on this server; install it with: apt-get install ${tool.apt}`;
};

/**
 * The path of a tool the work needs; otherwise an error that names what to install: UNPROCESSABLE by default (a
 * build fails with it), UNAVAILABLE (503) for a request the server could answer once the tool is installed.
 */
export const requireTool = async (
  name: SystemToolName,
  forWhat: string,
  code: "UNPROCESSABLE" | "UNAVAILABLE" = "UNPROCESSABLE",
): Promise<string> => {
  const file = await findTool(name);
  if (file) return file;
  throw new AppError(code, missingToolMessage(name, forWhat));
};

export type RunToolOptions = {
  /** Killed (SIGKILL, whole process group) after this long. */
  timeoutMs: number;
  /** Standard output past this many bytes fails the run instead of filling memory. */
  maxOutputBytes?: number;
  input?: Buffer | Uint8Array;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Used in error messages, e.g. "Converting the .doc file". */
  what: string;
  /** What the parse is doing meanwhile, named if it runs out of time (default "running <program>"). */
  step?: string;
};

type ToolWatcher = (pid: number, running: boolean) => void;

let toolWatcher: ToolWatcher | null = null;

/**
 * Told of every program started and ended (set by the parse worker). A program runs in a process group of its own,
 * so that its timeout reaches its children (soffice starts soffice.bin); that group would outlive a worker killed at
 * its time limit, so the worker names it to the app, which kills it with the worker.
 */
export const setToolWatcher = (watch: ToolWatcher | null) => {
  toolWatcher = watch;
};

/**
 * Runs a program without a shell (arguments are never interpreted) and collects its output. A timeout, a
 * non-zero exit or too much output ends as an UNPROCESSABLE error whose text says what went wrong.
 */
export const runTool = (
  file: string,
  args: string[],
  { step = `running ${path.basename(file)}`, ...options }: RunToolOptions,
): Promise<{ stdout: Buffer; stderr: string }> => duringStep(step, () => runToolNow(file, args, options));

const runToolNow = (
  file: string,
  args: string[],
  { timeoutMs, maxOutputBytes = 512 * 1024 * 1024, input, cwd, env, what }: RunToolOptions,
): Promise<{ stdout: Buffer; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd,
      env: env ?? process.env,
      stdio: [input ? "pipe" : "ignore", "pipe", "pipe"],
      detached: true,
    });
    const pid = child.pid;
    if (pid) toolWatcher?.(pid, true);
    // What is left of the group once the program exited (a child that kept its output open) would hold the run open
    // until 'close'; it goes with its program.
    child.once("exit", () => {
      try {
        if (pid) process.kill(-pid, "SIGKILL");
      } catch {
        // Nothing was left.
      }
    });
    child.once("close", () => pid && toolWatcher?.(pid, false));
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let failure: string | null = null;
    const kill = (reason: string) => {
      failure ??= reason;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(
      () => kill(`${what} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`),
      timeoutMs,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutputBytes) return kill(`${what} produced more output than allowed`);
      out.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (err.length < 8000) err += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new AppError("UNPROCESSABLE", `${what} failed to start: ${error.message}`, { cause: error }));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (failure) return reject(new AppError("UNPROCESSABLE", failure));
      if (code !== 0) {
        const detail = err.trim().split("\n").slice(-3).join(" ").slice(0, 500);
        return reject(
          new AppError(
            "UNPROCESSABLE",
            `${what} failed (${signal ?? `exit code ${code}`})${detail ? `: ${detail}` : ""}`,
          ),
        );
      }
      resolve({ stdout: Buffer.concat(out), stderr: err });
    });
    if (input && child.stdin) {
      child.stdin.on("error", () => undefined);
      child.stdin.end(Buffer.from(input));
    }
  });
