import type { InngestFunction } from "inngest";
import { failedFunctionFilter, failedFunctionId, functionConfigs, retriesOf } from "./inngest-sdk";

/**
 * What the executor knows about the served functions. In dev mode `GET /api/inngest` returns no configs and in cloud
 * mode it needs a signed request and still omits them, so the configs are read in-process, from the same objects the
 * route serves, through the SDK's own `getConfig` (the payload it would register with an Inngest server). That keeps
 * function ids (`<appId>-<fnId>`, and `-failure` for onFailure handlers) exactly what `serve()` routes on.
 */

export type RegisteredFunction = {
  id: string;
  /** retries + 1; the SDK default is 3 retries. */
  maxAttempts: number;
  triggers: Trigger[];
};

type Trigger = { event: string; functionIdFilter?: string };

/** Flow-control options that need the Inngest server; the executor runs such functions without them. */
const UNSUPPORTED_OPTIONS = [
  "batchEvents",
  "cancel",
  "concurrency",
  "debounce",
  "idempotency",
  "priority",
  "rateLimit",
  "singleton",
  "throttle",
  "timeouts",
] as const;

export type FunctionRegistry = {
  functions: Map<string, RegisteredFunction>;
  /** Functions an event starts, in registration order. */
  route: (event: { name: string; data: Record<string, unknown> }) => RegisteredFunction[];
  /** Configuration the executor ignores, one message per function, for a startup warning. */
  warnings: string[];
};

const matches = (pattern: string, name: string) =>
  pattern === name || (pattern.endsWith("/*") && name.startsWith(pattern.slice(0, -1)));

export const buildRegistry = (fns: InngestFunction.Any[], serveUrl: string): FunctionRegistry => {
  const functions = new Map<string, RegisteredFunction>();
  const warnings: string[] = [];
  for (const config of fns.flatMap((fn) => functionConfigs(fn, serveUrl))) {
    const triggers: Trigger[] = [];
    const ignored: string[] = [];
    for (const t of config.triggers ?? []) {
      if (t.cron) ignored.push(`cron "${t.cron}"`);
      if (!t.event) continue;
      if (!t.expression) {
        triggers.push({ event: t.event });
        continue;
      }
      const filter = failedFunctionFilter(t.expression);
      // Running a function whose `if` cannot be evaluated could do work the author ruled out; skipping is safer.
      if (filter) triggers.push({ event: t.event, functionIdFilter: filter });
      else ignored.push(`trigger "${t.event}" (if: ${t.expression})`);
    }
    for (const option of UNSUPPORTED_OPTIONS) if (config[option] !== undefined) ignored.push(`option "${option}"`);
    if (ignored.length) warnings.push(`${config.id}: ignored by the local executor: ${ignored.join(", ")}`);
    functions.set(config.id, { id: config.id, maxAttempts: Math.max(1, retriesOf(config) + 1), triggers });
  }
  const route: FunctionRegistry["route"] = (event) =>
    [...functions.values()].filter((fn) =>
      fn.triggers.some(
        (t) =>
          matches(t.event, event.name) &&
          (t.functionIdFilter === undefined || failedFunctionId(event.data) === t.functionIdFilter),
      ),
    );
  return { functions, route, warnings };
};
