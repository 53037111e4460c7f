import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { deployedFlowsFingerprint } from "../flows/deployed";
import { logger } from "../logger";
import { createMcpServer, type TokenContext } from "./server";

/**
 * MCP sessions, kept in this process's memory. A session exists so the server can push: its client holds a GET
 * event stream open and is sent `notifications/tools/list_changed` when a deploy, a rollback or a delete changes
 * the project's deployed flows. A stateless POST (no session) works as well; it just cannot be told of changes.
 *
 * Limits: a session unused for IDLE_MS (no request, no event stream open) is closed; at most MAX_SESSIONS live
 * at once and MAX_SESSIONS_PER_TOKEN per token, and opening one more closes the least recently used (the token's
 * own first). Only this process knows its sessions: behind several app processes a client must come back to the
 * same one (sticky routing), or it gets 404 and initializes again, as the protocol says.
 *
 * Changes are found by polling, once every WATCH_MS per project with sessions, a fingerprint of the deployed flows
 * (name and active revision). Polling, not an event from the deploy code, because a deploy finishes in the job
 * runner, a rollback in the dashboard's route and a delete in the CLI: other route bundles or other processes.
 */
export const IDLE_MS = 30 * 60_000;
export const MAX_SESSIONS = 200;
export const MAX_SESSIONS_PER_TOKEN = 20;
export const WATCH_MS = 2_000;

type Session = {
  id: string;
  tokenId: string;
  projectId: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
  /** Event streams open now: a client listening for notices is not idle, even if it sends nothing. */
  streams: number;
};

type Registry = { sessions: Map<string, Session>; fingerprints: Map<string, string>; timer?: NodeJS.Timeout };
// One registry per process: Next gives each route bundle its own copy of every module.
const slot = globalThis as unknown as { quarryMcpSessions?: Registry };
const registry: Registry = (slot.quarryMcpSessions ??= { sessions: new Map(), fingerprints: new Map() });

const closeSession = (session: Session) => {
  registry.sessions.delete(session.id);
  void session.server.close().catch(() => undefined);
};

const projectsWatched = () => new Set([...registry.sessions.values()].map((s) => s.projectId));

const tellChanged = async (projectId: string) => {
  const fingerprint = await deployedFlowsFingerprint(projectId);
  const before = registry.fingerprints.get(projectId);
  registry.fingerprints.set(projectId, fingerprint);
  if (before === undefined || before === fingerprint) return;
  for (const session of registry.sessions.values()) {
    if (session.projectId === projectId) await session.server.sendToolListChanged().catch(() => undefined);
  }
};

const watch = async () => {
  const now = Date.now();
  for (const session of registry.sessions.values()) {
    if (session.streams === 0 && now - session.lastSeen > IDLE_MS) closeSession(session);
  }
  const projects = projectsWatched();
  for (const projectId of registry.fingerprints.keys())
    if (!projects.has(projectId)) registry.fingerprints.delete(projectId);
  if (!projects.size && registry.timer) {
    clearInterval(registry.timer);
    registry.timer = undefined;
  }
  for (const projectId of projects) {
    await tellChanged(projectId).catch((err: unknown) => logger.warn({ err, projectId }, "mcp: flow watch failed"));
  }
};

let watching = false;
const startWatching = () => {
  if (registry.timer) return;
  registry.timer = setInterval(() => {
    if (watching) return;
    watching = true;
    void watch().finally(() => (watching = false));
  }, WATCH_MS);
  registry.timer.unref();
};

/** A new session for this token: its transport answers the initialize request that asked for it. */
export const openSession = async (ctx: TokenContext): Promise<WebStandardStreamableHTTPServerTransport> => {
  const { projectId, tokenId } = ctx.auth;
  const all = [...registry.sessions.values()];
  const own = all.filter((s) => s.tokenId === tokenId);
  // A token that keeps opening sessions closes its own old ones first, not other clients'.
  const full = own.length >= MAX_SESSIONS_PER_TOKEN ? own : all.length >= MAX_SESSIONS ? all : [];
  const oldest = full.sort((a, b) => a.lastSeen - b.lastSeen)[0];
  if (oldest) closeSession(oldest);
  // The baseline to compare against, taken before the client can see a tool list.
  if (!registry.fingerprints.has(projectId))
    registry.fingerprints.set(projectId, await deployedFlowsFingerprint(projectId));
  const server = createMcpServer(ctx);
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (id) => {
      registry.sessions.set(id, { id, tokenId, projectId, server, transport, lastSeen: Date.now(), streams: 0 });
      startWatching();
    },
    onsessionclosed: (id) => void registry.sessions.delete(id),
  });
  await server.connect(transport);
  return transport;
};

/** The session, when it exists and belongs to this token (another token's session reads as unknown). */
export const findSession = (id: string, tokenId: string) => {
  const session = registry.sessions.get(id);
  if (!session || session.tokenId !== tokenId) return null;
  session.lastSeen = Date.now();
  return session;
};

/** The session's event stream (a GET's response), counted as open until it ends or its client goes away. */
export const countStream = (session: Session, response: Response): Response => {
  if (!response.body) return response;
  const reader = response.body.getReader();
  let open = true;
  const finish = () => {
    if (!open) return;
    open = false;
    session.streams -= 1;
    session.lastSeen = Date.now();
  };
  session.streams += 1;
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const chunk = await reader.read();
      if (!chunk.done) return controller.enqueue(chunk.value);
      finish();
      controller.close();
    },
    cancel: (reason) => {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
};

/** A one-off server for a request without a session: it answers and is gone. */
export const statelessTransport = async (ctx: TokenContext) => {
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  return { transport, close: () => void server.close().catch(() => undefined) };
};
