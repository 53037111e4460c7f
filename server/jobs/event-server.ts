import http from "node:http";
import type { AddressInfo } from "node:net";
import { logger } from "@/server/logger";

/**
 * A small HTTP server for the executor's event endpoint, for when it should not go through the Next app:
 * `POST /e/<eventKey>` (what `inngest.send()` calls), everything else 404. Point INNGEST_BASE_URL at its `url`.
 */

export type EventServer = { url: string; port: number; close: () => Promise<void> };

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export const startEventServer = async ({
  handle,
  host = "127.0.0.1",
  port = 0,
}: {
  /** The executor's `handleEventRequest`. */
  handle: (req: Request) => Promise<Response>;
  host?: string;
  port?: number;
}): Promise<EventServer> => {
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) return void res.writeHead(413).end('{"error":"payload too large","status":413}');
        chunks.push(chunk as Buffer);
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const body = Buffer.concat(chunks);
      const request = new Request(`http://${host}${req.url ?? "/"}`, {
        method: req.method,
        headers,
        body: body.length && req.method !== "GET" && req.method !== "HEAD" ? body : undefined,
      });
      const response = await handle(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      logger.error({ err }, "event endpoint error");
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end('{"error":"internal error","status":500}');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
