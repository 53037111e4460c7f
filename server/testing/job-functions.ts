import { randomBytes } from "node:crypto";
import { Inngest, NonRetriableError } from "inngest";
import { sourceBuildRequested } from "@/server/jobs/events";

/**
 * Functions the executor's integration tests serve. Each test sends a unique `key` in the event data, and the
 * functions record what happened under it, so tests sharing one app do not see each other.
 */

export const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
export const eventKey = `evt-${randomBytes(16).toString("hex")}`;

export const client = new Inngest({ id: "jobs-test", isDev: false, signingKey, eventKey });

type Key = { key: string };

/** Everything the functions observed, per test key. */
export const seen = {
  order: new Map<string, string[]>(),
  calls: new Map<string, number>(),
  failures: new Map<string, string>(),
  timestamps: new Map<string, number[]>(),
  overlap: { current: 0, max: 0 },
};

const bump = (key: string, what: string) => {
  const id = `${key}:${what}`;
  const n = (seen.calls.get(id) ?? 0) + 1;
  seen.calls.set(id, n);
  return n;
};
export const count = (key: string, what: string) => seen.calls.get(`${key}:${what}`) ?? 0;

const record = (key: string, step: string) => {
  const list = seen.order.get(key) ?? [];
  list.push(step);
  seen.order.set(key, list);
  return step;
};

const sequential = client.createFunction(
  { id: "sequential", triggers: [{ event: "test/sequential" }] },
  async ({ event, step }) => {
    const { key } = event.data as Key;
    const a = await step.run("one", () => record(key, "one"));
    const b = await step.run("two", () => record(key, "two"));
    const c = await step.run("three", () => record(key, "three"));
    return { steps: [a, b, c] };
  },
);

const parallel = client.createFunction({ id: "parallel", triggers: [{ event: "test/parallel" }] }, async ({ step }) => {
  const [a, b, c] = await Promise.all([step.run("p1", () => 1), step.run("p2", () => 2), step.run("p3", () => 3)]);
  const total = await step.run("sum", () => a + b + c);
  return { total };
});

/** Twelve parallel steps, one failing once: more than one pool of branches, and a branch retry. */
const fanOut = client.createFunction(
  { id: "fan-out", triggers: [{ event: "test/fan-out" }] },
  async ({ event, step }) => {
    const { key } = event.data as Key;
    const parts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        step.run(`part-${i}`, async () => {
          seen.overlap.current += 1;
          seen.overlap.max = Math.max(seen.overlap.max, seen.overlap.current);
          await new Promise((r) => setTimeout(r, 30));
          seen.overlap.current -= 1;
          if (i === 5 && bump(key, "part-5") === 1) throw new Error("part 5 hiccup");
          return i;
        }),
      ),
    );
    return { sum: parts.reduce((a, b) => a + b, 0) };
  },
);

const flaky = client.createFunction(
  { id: "flaky", retries: 3, triggers: [{ event: "test/flaky" }] },
  async ({ event, step, attempt }) => {
    const { key } = event.data as Key;
    return step.run("flaky-step", () => {
      if (bump(key, "flaky") === 1) throw new Error("transient");
      return { attempt };
    });
  },
);

const broken = client.createFunction(
  {
    id: "broken",
    retries: 1,
    triggers: [{ event: "test/broken" }],
    onFailure: async ({ event, error }) => {
      seen.failures.set((event.data.event.data as Key).key, error.message);
    },
  },
  async ({ event }) => {
    bump((event.data as Key).key, "broken");
    throw new Error("always broken");
  },
);

const brokenStep = client.createFunction(
  { id: "broken-step", retries: 2, triggers: [{ event: "test/broken-step" }] },
  async ({ event, step }) => {
    const { key } = event.data as Key;
    await step.run("explode", () => {
      bump(key, "explode");
      throw new Error("step always fails");
    });
  },
);

const fatal = client.createFunction(
  { id: "fatal", retries: 5, triggers: [{ event: "test/fatal" }] },
  async ({ event }) => {
    bump((event.data as Key).key, "fatal");
    throw new NonRetriableError("no point retrying");
  },
);

const sleeper = client.createFunction({ id: "sleeper", triggers: [{ event: "test/sleep" }] }, async ({ step }) => {
  const before = await step.run("before", () => Date.now());
  await step.sleep("nap", "1s");
  const after = await step.run("after", () => Date.now());
  return { slept: after - before };
});

const sleepBeside = client.createFunction(
  { id: "sleep-beside", triggers: [{ event: "test/sleep-beside" }] },
  async ({ step }) => {
    const started = await step.run("start", () => Date.now());
    await Promise.all([step.run("work", () => "done"), step.sleep("nap", "1s")]);
    const ended = await step.run("end", () => Date.now());
    return { waited: ended - started };
  },
);

const overlapping = client.createFunction(
  { id: "overlap", triggers: [{ event: "test/overlap" }] },
  async ({ step }) => {
    await step.run("work", async () => {
      seen.overlap.current += 1;
      seen.overlap.max = Math.max(seen.overlap.max, seen.overlap.current);
      await new Promise((r) => setTimeout(r, 150));
      seen.overlap.current -= 1;
    });
  },
);

/** Step 2 waits for `release` so a test can stop the executor while it is in flight. */
export const resumeGate = { release: () => {}, released: Promise.resolve() };
export const holdResume = () => {
  resumeGate.released = new Promise<void>((resolve) => (resumeGate.release = resolve));
};

const resumable = client.createFunction(
  { id: "resumable", triggers: [{ event: "test/resume" }] },
  async ({ event, step }) => {
    const { key } = event.data as Key;
    await step.run("first", () => bump(key, "first"));
    await step.run("second", async () => {
      bump(key, "second");
      await resumeGate.released;
    });
    return { done: true };
  },
);

const typed = client.createFunction({ id: "typed", triggers: [sourceBuildRequested] }, async ({ event, step }) =>
  step.run("echo", () => ({ buildId: event.data.buildId })),
);

export const functions = [
  sequential,
  parallel,
  fanOut,
  flaky,
  broken,
  brokenStep,
  fatal,
  sleeper,
  sleepBeside,
  overlapping,
  resumable,
  typed,
];
