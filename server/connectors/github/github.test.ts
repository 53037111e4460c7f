import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../../env";
import { AppError } from "../../errors";
import { fileStore } from "../../storage";
import { startGithubStandIn, type GithubStandIn, type RepoFile } from "../../testing/github-stand-in";
import { createFetcher } from "../fetch";
import { readManifest } from "../snapshot";
import type { AcquireContext } from "../types";
import { GITHUB_LIMITS, judgePath } from "./files";
import { acquireGithub, parseGithubUrl } from "./index";

/**
 * The GitHub connector against a stand-in of GitHub's API and codeload (two origins, a real gzipped tarball built
 * here), through the real guarded fetcher with only the stand-ins allowed.
 */

const FILES: RepoFile[] = [
  { path: "README.md", content: "# Quarry tools\n\nScripts the crew uses to plan blasts and cut lists.\n" },
  {
    path: "src/blast.ts",
    content: "export const charge = (volume: number) => volume * 0.42;\n\nexport const delayMs = 25;\n",
  },
  { path: "src/util/math.py", content: "def area(w, h):\n    return w * h\n" },
  { path: "docs/guide/intro.md", content: "# Intro\n\nHow to plan a bench.\n" },
  { path: "node_modules/left-pad/index.js", content: "module.exports = (s) => s;\n" },
  { path: "dist/bundle.js", content: "var a=1;\n" },
  { path: "assets/logo.png", content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) },
  { path: "data/blob.txt", content: Buffer.from("text\u0000with a NUL byte\n") },
  { path: "big.txt", content: "x".repeat(GITHUB_LIMITS.fileBytes + 10) },
  { path: "package-lock.json", content: "{}" },
  { path: "src/app.min.js", content: "var b=2;" },
  { path: "LICENSE", content: "MIT License\n" },
  { path: "docs/link.md", symlinkTo: "../README.md" },
];

let stand: GithubStandIn;
let dataDir: string;
const updates: unknown[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "quarry-github-"));
  setRuntimeEnv("QUARRY_DATA_DIR", dataDir);
  stand = await startGithubStandIn({
    // 64 MB of zeros gzip to about 64 KB: a decompression bomb in small.
    "quarry-co/bomb": {
      defaultBranch: "main",
      branches: ["main"],
      files: [{ path: "zeros.txt", content: Buffer.alloc(64 * 1024 * 1024) }],
      sha: "2222222cccc",
    },
    "quarry-co/tools": {
      defaultBranch: "main",
      branches: ["main", "feature/wire-saw"],
      files: FILES,
      sha: "abc1234def5678",
    },
    "quarry-co/secret": { defaultBranch: "main", branches: ["main"], files: FILES, sha: "0000000aaaa", private: true },
    "quarry-co/empty": {
      defaultBranch: "main",
      branches: ["main"],
      files: [{ path: "logo.png", content: Buffer.from([1, 2, 3]) }],
      sha: "1111111bbbb",
    },
  });
  setRuntimeEnv("GITHUB_API_BASE_URL", stand.origin);
});
afterAll(async () => {
  setRuntimeEnv("GITHUB_API_BASE_URL", "");
  setRuntimeEnv("GITHUB_TOKEN", "");
  await stand.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  stand.requests.length = 0;
  updates.length = 0;
});

let n = 0;
const context = (): AcquireContext => {
  n++;
  return {
    buildId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    projectId: "p",
    sourceId: "s",
    folder: `projects/p/sources/s/snapshot-00000000-0000-4000-8000-${String(n).padStart(12, "0")}/`,
    report: { update: (r) => updates.push(r), flush: async () => undefined },
    fetcher: createFetcher({ allowHosts: new Set([`127.0.0.1:${stand.port}`, `127.0.0.1:${stand.codeloadPort}`]) }),
  };
};

const acquire = (url: string, limits = GITHUB_LIMITS) => {
  const parsed = parseGithubUrl(url)!;
  return acquireGithub({ kind: "github", url, ...parsed }, context(), limits);
};

describe("GitHub repository URLs", () => {
  it("reads owner, repository and what follows /tree/ or /blob/", () => {
    expect(parseGithubUrl("https://github.com/langchain-ai/langchain")).toEqual({
      owner: "langchain-ai",
      repo: "langchain",
      treePath: null,
    });
    expect(parseGithubUrl("github.com/o/r.git")).toEqual({ owner: "o", repo: "r", treePath: null });
    expect(parseGithubUrl("https://www.github.com/o/r/tree/feature/x/docs/")).toEqual({
      owner: "o",
      repo: "r",
      treePath: "feature/x/docs",
    });
    expect(parseGithubUrl("https://github.com/o/r/blob/main/README.md?plain=1")).toEqual({
      owner: "o",
      repo: "r",
      treePath: "main/README.md",
    });
    for (const bad of [
      "https://gitlab.com/o/r",
      "https://github.com/o",
      "https://github.com/o/r/issues/1",
      "not a url",
      "https://github.com/-o-/r/../x",
    ]) {
      expect(parseGithubUrl(bad), bad).toBeNull();
    }
  });

  it("reads text files and skips vendored folders, lock files and other types", () => {
    expect(judgePath("src/index.ts")).toEqual({ read: { type: "code", language: "typescript" } });
    expect(judgePath("docs/README.md")).toEqual({ read: { type: "md", language: null } });
    expect(judgePath("Dockerfile")).toEqual({ read: { type: "code", language: "dockerfile" } });
    expect(judgePath("node_modules/x/index.js")).toEqual({ skip: "vendored or build folder" });
    expect(judgePath(".git/config")).toEqual({ skip: "vendored or build folder" });
    expect(judgePath(".github/workflows/ci.yml")).toEqual({ read: { type: "code", language: "yaml" } });
    expect(judgePath("yarn.lock")).toEqual({ skip: "lock or minified file" });
    expect(judgePath("img/photo.jpg")).toEqual({ skip: "not a text file type" });
  });
});

describe("acquiring a repository", () => {
  it("streams one tarball: text files only, paths on every document, two API calls", async () => {
    const acquired = await acquire("https://github.com/quarry-co/tools");
    const manifest = await readManifest(acquired.storageKey);
    expect(manifest.documents.map((d) => [d.name, d.type])).toEqual([
      ["README.md", "md"],
      ["src/blast.ts", "code"],
      ["src/util/math.py", "code"],
      ["docs/guide/intro.md", "md"],
      ["LICENSE", "txt"],
    ]);
    expect(manifest.documents[1]!.metadata).toEqual({
      path: "src/blast.ts",
      repository: "quarry-co/tools",
      ref: "main",
      url: "https://github.com/quarry-co/tools/blob/main/src/blast.ts",
    });
    expect(acquired.report).toMatchObject({
      repository: "quarry-co/tools",
      ref: "main",
      commit: "abc1234",
      files: 5,
      truncated: null,
      skipped: {
        "vendored or build folder": 2,
        "not a text file type": 1,
        "binary content": 1,
        "larger than 1 MB": 1,
        "lock or minified file": 2,
      },
    });
    const text = (
      await fileStore().read(`${acquired.storageKey.replace("manifest.json", "")}${manifest.documents[0]!.file}`)
    ).toString();
    expect(text).toContain("Scripts the crew uses");
    expect(stand.requests.map((r) => `${r.server} ${r.path}`)).toEqual([
      "api /repos/quarry-co/tools",
      "api /repos/quarry-co/tools/tarball/main",
      "codeload /quarry-co/tools/legacy.tar.gz/refs/heads/main",
    ]);
  });

  it("honours a branch with a slash and a sub-path", async () => {
    const acquired = await acquire("https://github.com/quarry-co/tools/tree/feature/wire-saw/docs");
    const manifest = await readManifest(acquired.storageKey);
    expect(manifest.documents.map((d) => d.name)).toEqual(["docs/guide/intro.md"]);
    expect(acquired.report).toMatchObject({ ref: "feature/wire-saw", sub_path: "docs" });
  });

  it("fails with GitHub's reason for a missing, private or rate-limited repository", async () => {
    const reason = async (url: string) => ((await acquire(url).catch((e: unknown) => e)) as AppError).message;
    expect(await reason("https://github.com/quarry-co/nothing")).toBe(
      'GitHub could not find the repository quarry-co/nothing ("Not Found"): it does not exist or it is private (only public repositories can be ingested)',
    );
    expect(await reason("https://github.com/quarry-co/secret")).toMatch(/it does not exist or it is private/);
    expect(await reason("https://github.com/rate-limited/anything")).toBe(
      `GitHub's API rate limit is exhausted ("API rate limit exceeded for 203.0.113.9. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)"); it resets at 2030-01-01T00:00:00.000Z. Set GITHUB_TOKEN to raise the limit`,
    );
    expect(await reason("https://github.com/quarry-co/tools/tree/no-such-branch")).toMatch(/no branch, tag or commit/);
    expect(await reason("https://github.com/quarry-co/empty")).toMatch(
      /no text files \(skipped: 1 not a text file type\)/,
    );
  });

  it("stops an archive that unpacks past the limit, and a repository past the text limit", async () => {
    const bomb = (await acquire("https://github.com/quarry-co/bomb", {
      ...GITHUB_LIMITS,
      unpackedBytes: 8 * 1024 * 1024,
    }).catch((e: unknown) => e)) as AppError;
    expect(bomb.message).toBe("The repository archive unpacks to more than 8 MB; it is not read");
    const capped = await acquire("https://github.com/quarry-co/tools", { ...GITHUB_LIMITS, files: 2 });
    expect(capped.report).toMatchObject({
      files: 2,
      truncated: "stopped after 2 files (0 MB of text): the rest of the repository was not read",
    });
  });

  it("sends GITHUB_TOKEN to the API only, never to codeload, and refuses a private repository the token can see", async () => {
    setRuntimeEnv("GITHUB_TOKEN", "ghp_standin");
    try {
      await acquire("https://github.com/quarry-co/tools");
      expect(stand.requests.map((r) => [r.server, r.authorization])).toEqual([
        ["api", "Bearer ghp_standin"],
        ["api", "Bearer ghp_standin"],
        ["codeload", null],
      ]);
      const error = (await acquire("https://github.com/quarry-co/secret").catch((e: unknown) => e)) as AppError;
      expect(error.message).toBe(
        "The repository quarry-co/secret is private: only public repositories can be ingested",
      );
    } finally {
      setRuntimeEnv("GITHUB_TOKEN", "");
    }
  });
});
