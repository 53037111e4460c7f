import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Inngest, InngestFunction } from "inngest";
import { serve } from "inngest/node";
import type { Db } from "@/server/db";
import { startEmbeddedPostgres } from "@/server/postgres/embedded-postgres";
import { applyMigrations } from "@/server/postgres/migrate";
import { setRuntimeEnv } from "@/server/env";
import { createScratchDatabase, realPostgresUrl } from "./scratch-database";

/** Integration-test plumbing for the job executor: a migrated in-memory Postgres and real HTTP servers on port 0. */

export type TestDb = { url: string; db: Db; stop: () => Promise<void> };

/**
 * The app's own Prisma singleton, pointed (before its first import) at a fresh in-memory database, or at a fresh
 * database on the real server of QUARRY_TEST_POSTGRES_URL (scratch-database.ts).
 */
export const startTestDb = async (): Promise<TestDb> => {
  const real = realPostgresUrl();
  const postgres = real
    ? await createScratchDatabase(real).then((scratch) => ({ url: scratch.url, stop: scratch.drop }))
    : await startEmbeddedPostgres({ port: 0 });
  await applyMigrations({ url: postgres.url });
  setRuntimeEnv("DATABASE_URL", postgres.url);
  const { db, disconnectDb } = await import("@/server/db");
  return {
    url: postgres.url,
    db,
    stop: async () => {
      await disconnectDb();
      await postgres.stop();
    },
  };
};

export type TestServer = { url: string; port: number; close: () => Promise<void> };

const listen = async (server: http.Server, port = 0): Promise<TestServer> => {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * The app side: `serve()` from inngest/node at /api/inngest. `gate` lets a test make the endpoint look down
 * (connections are dropped) or answer 503, as during an app restart.
 */
export const startServeApp = async ({
  client,
  functions,
  gate,
  port,
}: {
  client: Inngest.Any;
  functions: InngestFunction.Any[];
  gate?: () => "up" | "drop" | "503";
  port?: number;
}) => {
  const handler = serve({ client, functions });
  const server = http.createServer((req, res) => {
    const state = gate?.() ?? "up";
    if (state === "drop") return req.socket.destroy();
    if (state === "503") return res.writeHead(503).end("restarting");
    if (!req.url?.startsWith("/api/inngest")) return res.writeHead(404).end();
    void handler(req, res);
  });
  const running = await listen(server, port);
  return { ...running, serveUrl: `${running.url}/api/inngest` };
};

/** Polls until `check` holds (or throws after `timeoutMs`). */
export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("waitFor: timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A promise with its resolve, to hold a step until the test lets it go. */
export const gateSignal = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};
