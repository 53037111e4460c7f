/**
 * Prints where a V8 CPU profile (`node --cpu-prof`) spent its time: self and inclusive time per function and per
 * module (the package under node_modules, Next's server chunk, or node's own `node:` module), plus idle, GC and
 * program time. For the app process under a bench: `QUARRY_TEST_NODE_FLAGS="--cpu-prof --cpu-prof-dir=<dir>"`
 * (server/testing/quarry-process.ts), then `npx tsx bench/cpuprofile.ts <dir>/<file>.cpuprofile [--top=N] [--filter=re]
 * [--skip=seconds]`. One file per thread: `CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`, thread 0 is the main one.
 * `filter` keeps only the samples whose stack has a frame matching it (a function or file name, as a regular
 * expression), e.g. `prebuilt-rag` for the time spent under that route.
 */
import { readFileSync } from "node:fs";

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** The package a script belongs to: `pkg` or `@scope/pkg` under node_modules, a Next chunk's name, or the file. */
export const moduleOf = (url: string): string => {
  if (!url) return "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const [first, second] = url.slice(nm + "node_modules/".length).split("/");
    return first?.startsWith("@") ? `${first}/${second}` : first!;
  }
  if (url.startsWith("node:")) return url;
  const next = url.indexOf(".next/");
  return next >= 0 ? url.slice(next) : url.replace(/^file:\/\//, "");
};

const frameName = (f: CallFrame) =>
  `${f.functionName || "(anonymous)"} ${f.url ? `${moduleOf(f.url).split("/").pop()}:${f.lineNumber + 1}` : ""}`.trim();

/**
 * Self and inclusive microseconds per key; a key on a stack twice (recursion) counts once per sample. Each sample
 * weighs the profile's median interval, not its own time delta: on a loaded machine a thread that was descheduled
 * gets one late sample whose delta holds all the time it did not run (a socket write that woke the database thread
 * looked like 15 % of the app's time). `skipMs` leaves out the start (module loading, migrations).
 */
export const summarise = (profile: Profile, { filter, skipMs = 0 }: { filter?: RegExp; skipMs?: number } = {}) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number) => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    return stack.slice(0, -1); // leaf first, without (root)
  };
  const tables = {
    selfFn: new Map<string, number>(),
    totalFn: new Map<string, number>(),
    selfModule: new Map<string, number>(),
    totalModule: new Map<string, number>(),
  };
  const add = (m: Map<string, number>, k: string, us: number) => m.set(k, (m.get(k) ?? 0) + us);
  const sorted = [...profile.timeDeltas].sort((a, b) => a - b);
  const us = sorted[Math.floor(sorted.length / 2)] ?? 0;
  let total = 0;
  let kept = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < skipMs * 1000) return;
    total += us;
    const stack = stackOf(id);
    if (filter && !stack.some((n) => filter.test(n.callFrame.functionName) || filter.test(n.callFrame.url))) return;
    kept += us;
    const leaf = (stack[0] ?? byId.get(id)!).callFrame;
    add(tables.selfFn, frameName(leaf), us);
    if (leaf.functionName === "(idle)") return; // in no module, under no function
    add(tables.selfModule, moduleOf(leaf.url), us);
    for (const k of new Set(stack.map((n) => frameName(n.callFrame)))) add(tables.totalFn, k, us);
    for (const k of new Set(stack.map((n) => moduleOf(n.callFrame.url)))) add(tables.totalModule, k, us);
  });
  return { total, kept, ...tables };
};

const main = () => {
  const args = process.argv.slice(2);
  const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const file = args.find((a) => !a.startsWith("--"));
  if (!file) {
    process.stderr.write("usage: tsx bench/cpuprofile.ts <file.cpuprofile> [--top=25] [--filter=regexp] [--skip=s]\n");
    process.exit(2);
  }
  const top = Number(option("top") ?? 25);
  const filterArg = option("filter");
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const filter = filterArg ? new RegExp(filterArg) : undefined;
  const s = summarise(profile, { filter, skipMs: Number(option("skip") ?? 0) * 1000 });
  const idle = s.selfFn.get("(idle)") ?? 0;
  const busy = s.kept - (filterArg ? 0 : idle);
  const ms = (us: number) => (us / 1000).toFixed(0).padStart(8);
  const pct = (us: number) => `${((100 * us) / Math.max(busy, 1)).toFixed(1).padStart(5)} %`;
  const print = (title: string, m: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    const rows = [...m].filter(([k]) => k !== "(idle)").sort((a, b) => b[1] - a[1]);
    for (const [k, us] of rows.slice(0, top)) process.stdout.write(`${ms(us)} ms ${pct(us)}  ${k}\n`);
  };
  process.stdout.write(
    `${file}: ${ms(s.total)} ms sampled, ${ms(idle)} ms idle, ${ms(busy)} ms busy` +
      `${filterArg ? ` under /${filterArg}/` : ""} (percentages of busy)\n`,
  );
  print("self time by function", s.selfFn);
  print("inclusive time by function", s.totalFn);
  print("self time by module", s.selfModule);
  print("inclusive time by module", s.totalModule);
};

if (process.argv[1]?.endsWith("cpuprofile.ts")) main();
