import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { BUNDLED_SOURCES, bundleOf } from "../startup/bundle";

/**
 * Runs CPU-heavy pure functions (chunking, the local embedder, the local enrichment extractor) in a worker thread,
 * so that a large document keeps the thread that serves HTTP and health checks free. Jobs run inside the app's
 * process (the local executor calls the app's own /api/inngest route); without this, one 100 MB upload made every
 * API call wait for minutes.
 *
 * One long-lived thread per process, tasks in order. A task names a module (path from the app root) and one of its
 * exports; arguments and results are copied (structured clone), so pass plain data. Like the parse workers, the
 * thread loads the task's bundled twin under `npm start` (bundle.ts), and the TypeScript source through tsx otherwise.
 */

/** The modules whose functions run here. */
type TaskModule = Exclude<(typeof BUNDLED_SOURCES)[number], "scripts/start.ts">;

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

const root = () => process.cwd();

const bootstrap = (tsxApi: string | null) => `
import { parentPort } from "node:worker_threads";
${tsxApi ? `const { register } = await import(${JSON.stringify(tsxApi)});\nregister();` : ""}
parentPort.on("message", async ({ id, module, name, args }) => {
  try {
    const loaded = await import(module);
    const result = await loaded[name](...args);
    parentPort.postMessage({ id, ok: true, result });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
`;

let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

const failAll = (error: Error) => {
  for (const p of pending.values()) p.reject(error);
  pending.clear();
  worker = null;
};

/** `bundled`: the tasks load from bundles, and the thread needs no tsx. */
const thread = (bundled: boolean): Worker => {
  if (worker) return worker;
  let tsxApi: string | null = null;
  if (!bundled) {
    tsxApi = path.join(/*turbopackIgnore: true*/ root(), "node_modules/tsx/dist/esm/api/index.mjs");
    if (!existsSync(/*turbopackIgnore: true*/ tsxApi)) throw new Error("tsx is missing from this installation");
  }
  const w = new Worker(bootstrap(tsxApi && pathToFileURL(tsxApi).href), { eval: true });
  w.on("message", (message: { id: number; ok: boolean; result?: unknown; message?: string }) => {
    const p = pending.get(message.id);
    if (!p) return;
    pending.delete(message.id);
    if (message.ok) p.resolve(message.result);
    else p.reject(new Error(message.message));
  });
  w.on("error", (error) => failAll(error));
  w.on("exit", (code) => failAll(new Error(`The CPU worker thread exited (${code})`)));
  // An idle thread must not keep a CLI or a test process alive.
  w.unref();
  worker = w;
  return w;
};

/** Calls `name` of `module` (e.g. "server/chunking/thread.ts") in the worker thread and returns its result. */
export const runOffThread = <T>(module: TaskModule, name: string, args: unknown[]): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    const bundle = bundleOf(module);
    const href = pathToFileURL(bundle ?? path.join(/*turbopackIgnore: true*/ root(), module)).href;
    const w = thread(bundle !== null);
    w.ref(); // keep the process up while a task runs
    const settle = () => {
      if (pending.size === 0) w.unref();
    };
    const p = pending.get(id)!;
    pending.set(id, {
      resolve: (v) => {
        settle();
        p.resolve(v);
      },
      reject: (e) => {
        settle();
        p.reject(e);
      },
    });
    w.postMessage({ id, module: href, name, args });
  });

/** Lets the event loop serve other work between batches of a long loop. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
