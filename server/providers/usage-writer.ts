import { db } from "../db";
import { logger } from "../logger";
import type { ModelCallReport, ModelCallRow } from "./usage-types";

/**
 * The queue behind recordModelCall: rows wait at most FLUSH_MS (or until BATCH rows) and go in with one INSERT, so a
 * model call never waits on the database. A batch that fails (a project deleted meanwhile) is tried again project by
 * project, and what still fails is logged: usage is worth a log line, never a failed answer.
 */

const FLUSH_MS = 200;
const BATCH = 200;

const queue: ModelCallRow[] = [];
const inFlight = new Set<Promise<void>>();
let timer: NodeJS.Timeout | null = null;

const insert = async (rows: ModelCallRow[]) => {
  try {
    await db.modelCall.createMany({ data: rows });
  } catch {
    for (const projectId of new Set(rows.map((r) => r.projectId))) {
      const own = rows.filter((r) => r.projectId === projectId);
      await db.modelCall
        .createMany({ data: own })
        .catch((error) => logger.warn({ err: error, projectId, calls: own.length }, "model usage not recorded"));
    }
  }
};

const writeQueued = () => {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!queue.length) return;
  const write = insert(queue.splice(0, queue.length)).finally(() => inFlight.delete(write));
  inFlight.add(write);
};

export const enqueueModelCall = (row: ModelCallRow) => {
  queue.push(row);
  if (queue.length >= BATCH) writeQueued();
  else if (!timer) {
    timer = setTimeout(writeQueued, FLUSH_MS);
    timer.unref();
  }
};

export const flushModelCalls = async () => {
  writeQueued();
  await Promise.all([...inFlight]);
};

const unattributed = new Set<string>();

/**
 * A call with no project to charge it to (a dimension probe at start, a benchmark): said in the log instead, once per
 * model and kind so a benchmark's thousands of calls do not flood it.
 */
export const logUnattributed = (report: ModelCallReport) => {
  const key = `${report.capability}:${report.model}`;
  if (unattributed.has(key)) return;
  unattributed.add(key);
  logger.info({ model: report.model, capability: report.capability }, "model calls outside any project: not recorded");
};

export const logUsageFailure = (error: unknown) => logger.warn({ err: error }, "model usage not recorded");
