/**
 * Which files of a repository are read, and as what. Text only: an allow-list of extensions (and a few well-known
 * names), then a binary check on the bytes. Vendored and build folders, lock files and minified bundles are
 * skipped: they are large, generated, and drown the files people wrote.
 */

export type GithubLimits = {
  fileBytes: number;
  totalTextBytes: number;
  files: number;
  archiveBytes: number;
  unpackedBytes: number;
};

/** Per-file and whole-repository limits. */
export const GITHUB_LIMITS: GithubLimits = {
  fileBytes: 1024 * 1024,
  totalTextBytes: 50 * 1024 * 1024,
  files: 5000,
  /** The gzipped archive as downloaded. */
  archiveBytes: 500 * 1024 * 1024,
  /** The tar stream after gunzip: a decompression bomb stops here. */
  unpackedBytes: 2 * 1024 * 1024 * 1024,
};

const DOCUMENTS: Record<string, string> = {
  md: "md",
  markdown: "md",
  mdx: "md",
  txt: "txt",
  text: "txt",
  rst: "txt",
  adoc: "txt",
  asciidoc: "txt",
  org: "txt",
  html: "html",
  htm: "html",
  csv: "csv",
  tsv: "tsv",
};

const CODE: Record<string, string> = {
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  tsx: "typescript",
  py: "python",
  pyi: "python",
  rb: "ruby",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  scala: "scala",
  groovy: "groovy",
  gradle: "groovy",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  cs: "csharp",
  fs: "fsharp",
  php: "php",
  swift: "swift",
  m: "objectivec",
  mm: "objectivec",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  fish: "fish",
  ps1: "powershell",
  sql: "sql",
  r: "r",
  jl: "julia",
  lua: "lua",
  pl: "perl",
  pm: "perl",
  ex: "elixir",
  exs: "elixir",
  erl: "erlang",
  hrl: "erlang",
  hs: "haskell",
  ml: "ocaml",
  mli: "ocaml",
  clj: "clojure",
  cljs: "clojure",
  dart: "dart",
  vue: "vue",
  svelte: "svelte",
  css: "css",
  scss: "scss",
  sass: "sass",
  less: "less",
  json: "json",
  jsonc: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  ini: "ini",
  cfg: "ini",
  conf: "ini",
  xml: "xml",
  proto: "protobuf",
  graphql: "graphql",
  gql: "graphql",
  tf: "hcl",
  hcl: "hcl",
  nix: "nix",
  zig: "zig",
  nim: "nim",
  v: "verilog",
  sol: "solidity",
  cmake: "cmake",
  mk: "make",
  bat: "batch",
  vim: "vim",
  el: "lisp",
  lisp: "lisp",
  scm: "scheme",
  tex: "latex",
};

const NAMED: Record<string, { type: string; language: string | null }> = {
  readme: { type: "txt", language: null },
  license: { type: "txt", language: null },
  licence: { type: "txt", language: null },
  copying: { type: "txt", language: null },
  authors: { type: "txt", language: null },
  contributing: { type: "txt", language: null },
  changelog: { type: "txt", language: null },
  notice: { type: "txt", language: null },
  dockerfile: { type: "code", language: "dockerfile" },
  makefile: { type: "code", language: "make" },
  gemfile: { type: "code", language: "ruby" },
  rakefile: { type: "code", language: "ruby" },
  procfile: { type: "code", language: "text" },
};

const SKIPPED_FOLDERS = new Set([
  "node_modules",
  "bower_components",
  "jspm_packages",
  "vendor",
  "third_party",
  "third-party",
  "dist",
  "build",
  "out",
  "target",
  "bin",
  "obj",
  "coverage",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".gradle",
  ".idea",
  ".vscode",
  "pods",
  ".git",
  ".yarn",
  ".cache",
]);

const LOCK_FILES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "cargo.lock",
  "poetry.lock",
  "pipfile.lock",
  "gemfile.lock",
  "composer.lock",
  "go.sum",
  "mix.lock",
  "pubspec.lock",
  "podfile.lock",
  "uv.lock",
]);

export type FileKind = { type: string; language: string | null };

export type Verdict =
  { read: FileKind } | { skip: "vendored or build folder" | "not a text file type" | "lock or minified file" };

/** What to do with a repository path (relative to the repository root). */
export const judgePath = (path: string): Verdict => {
  const parts = path.split("/");
  const name = parts.at(-1)!.toLowerCase();
  // Dot folders are tooling (.git, .idea); .github holds workflows and community docs worth reading.
  if (parts.slice(0, -1).some((p) => SKIPPED_FOLDERS.has(p.toLowerCase()) || (p.startsWith(".") && p !== ".github"))) {
    return { skip: "vendored or build folder" };
  }
  if (LOCK_FILES.has(name) || /\.min\.(js|css)$/.test(name) || /\.(map|snap)$/.test(name))
    return { skip: "lock or minified file" };
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot + 1) : "";
  const base = dot > 0 ? name.slice(0, dot) : name;
  if (ext && DOCUMENTS[ext]) return { read: { type: DOCUMENTS[ext], language: null } };
  if (ext && CODE[ext]) return { read: { type: "code", language: CODE[ext] } };
  const named = NAMED[ext ? base : name] ?? (ext === "" ? NAMED[name] : undefined);
  if (named && (ext === "" || ext === "txt" || ext === "md")) return { read: named };
  return { skip: "not a text file type" };
};

/** NUL bytes, or text that is not UTF-8 with many control characters, mean a binary file with a text name. */
export const isBinary = (bytes: Uint8Array) => {
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return n > 0 && control / n > 0.05;
};
