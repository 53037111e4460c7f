import { db } from "../db";
import type { Build, Source } from "../generated/prisma/client";
import { logger } from "../logger";
import { sourceRow, type SourceRow } from "./listing";

/**
 * Status changes of a project's sources, pushed to the dashboard (server-sent events) instead of the page polling the
 * whole list. One poller per project serves every open tab of it: each second it reads only the sources (and their
 * newest builds) written since the last look, and sends a row only when what the table shows of it changed. Reading
 * the database rather than hooking the job code keeps this right when builds run on another instance (an Inngest
 * server) too.
 */

export type StatusEvent =
  | { type: "source"; row: SourceRow }
  /** The number of sources changed (an upload or a delete elsewhere): the open page should be read again. */
  | { type: "count"; total: number };

type Listener = (event: StatusEvent) => void;

const TICK_MS = 1_000;
/** Rows are stamped by the writing process's clock; looking back a little covers skew between writers. */
const OVERLAP_MS = 5_000;

type Feed = {
  listeners: Set<Listener>;
  timer: NodeJS.Timeout;
  since: Date;
  total: number | null;
  sent: Map<string, string>;
};

const feeds = new Map<string, Feed>();
/** Projects whose look at the database is in progress. */
const running = new Set<string>();

const signature = (row: SourceRow) =>
  JSON.stringify([row.status, row.build?.id, row.build?.status, row.build?.step, row.build?.progress, row.method]);

/** Sources of the project written since `since`, or whose newest build was. */
export const sourcesChangedSince = async ({ projectId, since }: { projectId: string; since: Date }) => {
  const ids = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id FROM sources s LEFT JOIN builds b ON b.id = s.last_build_id AND b.project_id = s.project_id
    WHERE s.project_id = ${projectId}::uuid AND (s.updated_at > ${since} OR b.updated_at > ${since})
    LIMIT 500`;
  if (ids.length === 0) return [];
  const sources: Source[] = await db.source.findMany({ where: { projectId, id: { in: ids.map((r) => r.id) } } });
  const builds: Build[] = await db.build.findMany({
    where: { projectId, id: { in: sources.flatMap((s) => (s.lastBuildId ? [s.lastBuildId] : [])) } },
  });
  const byId = new Map(builds.map((b) => [b.id, b]));
  return sources.map((s) => sourceRow(s, s.lastBuildId ? byId.get(s.lastBuildId) : undefined));
};

const tick = async (projectId: string, feed: Feed) => {
  const started = new Date();
  const [rows, total] = await Promise.all([
    sourcesChangedSince({ projectId, since: feed.since }),
    db.source.count({ where: { projectId } }),
  ]);
  feed.since = new Date(started.getTime() - OVERLAP_MS);
  const events: StatusEvent[] = [];
  for (const row of rows) {
    const sig = signature(row);
    if (feed.sent.get(row.id) === sig) continue;
    feed.sent.set(row.id, sig);
    events.push({ type: "source", row });
  }
  if (feed.total !== null && feed.total !== total) events.push({ type: "count", total });
  feed.total = total;
  for (const event of events) for (const listener of feed.listeners) listener(event);
};

/** Listens to a project's status changes until the returned function is called. */
export const subscribeToProject = (projectId: string, listener: Listener): (() => void) => {
  let feed = feeds.get(projectId);
  if (!feed) {
    const created: Feed = {
      listeners: new Set(),
      since: new Date(Date.now() - OVERLAP_MS),
      total: null,
      sent: new Map(),
      timer: setInterval(() => {
        if (running.has(projectId)) return; // a slow look is not overtaken by the next one
        running.add(projectId);
        tick(projectId, created)
          .catch((err: unknown) => logger.warn({ err, projectId }, "status feed failed to read changes"))
          .finally(() => running.delete(projectId));
      }, TICK_MS),
    };
    created.timer.unref();
    feeds.set(projectId, created);
    feed = created;
  }
  feed.listeners.add(listener);
  const current = feed;
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size === 0) {
      clearInterval(current.timer);
      feeds.delete(projectId);
    }
  };
};
