import { AsyncLocalStorage } from "node:async_hooks";
import type { ModelCallReport, UsageContext } from "./usage-types";

export type * from "./usage-types";

/**
 * Every call to a remote model is recorded once, by the client that makes it (chat/openai-compatible.ts for chat and
 * vision, post-json.ts for embedding, rerank and speech). Who it was for and why is not the client's business, and
 * passing a project and a cause through every function between a tRPC procedure and an embedder would touch fifty
 * signatures; so the action that causes calls (an ask, a build step, a flow run …) runs inside `withModelUsage`, and
 * the client reads that context here. Nested actions: the innermost cause wins, the subject and spend are inherited.
 *
 * Writes leave the answer path at once: rows are queued and inserted in batches (usage-writer.ts); a failed insert
 * is logged and never reaches the call. A parse worker process sends its calls to the app instead (setModelCallSink).
 */

const storage = new AsyncLocalStorage<UsageContext>();

export const withModelUsage = <T>(context: UsageContext, fn: () => T): T => {
  const outer = storage.getStore();
  const inherited = outer?.projectId === context.projectId ? { subject: outer.subject, spend: outer.spend } : {};
  return storage.run({ ...inherited, ...context }, fn);
};

export const currentUsageContext = (): UsageContext | undefined => storage.getStore();

/** The estimate used when a provider reports no usage: about four characters a token. */
export const approxTokens = (text: string) => Math.ceil(text.length / 4);

type Sink = (report: ModelCallReport, context: UsageContext | undefined) => void;

// Loaded on first use, with the database and the logger: a parse worker process (which reports its calls to the app
// through setModelCallSink) must load neither.
let writer: Promise<typeof import("./usage-writer")> | null = null;
const loadWriter = () => (writer ??= import("./usage-writer"));

/** The app's sink: the batched database writer. */
const databaseSink: Sink = (report, context) => {
  void loadWriter().then((w) => {
    if (!context) return w.logUnattributed(report);
    w.enqueueModelCall({
      ...report,
      error: report.error ? report.error.slice(0, 500) : null,
      projectId: context.projectId,
      cause: context.cause,
      subject: context.subject ?? null,
      createdAt: new Date(),
    });
  });
};

let sink: Sink = databaseSink;

/** A parse worker process forwards its calls to the app, which records them under the job's context. */
export const setModelCallSink = (next: Sink) => {
  sink = next;
};

/** Records one call under `context` (the current one by default). Never throws. */
export const recordModelCall = (report: ModelCallReport, context = currentUsageContext()) => {
  try {
    if (context?.spend && report.capability === "chat") {
      context.spend.calls += 1;
      context.spend.tokensIn += report.tokensIn;
      context.spend.tokensOut += report.tokensOut;
    }
    sink(report, context);
  } catch (error) {
    void loadWriter().then((w) => w.logUsageFailure(error));
  }
};

/** Waits until every queued row is written (tests, and a budget about to be read back). */
export const flushModelCalls = async () => {
  if (writer) await (await writer).flushModelCalls();
};

/** Records reports that arrive outside the context (a parse worker's, over IPC) under the given one. */
export const modelCallRecorder = (context: UsageContext) => (report: ModelCallReport) =>
  recordModelCall(report, context);
