import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A webhook receiver on loopback, as an integrator would write one: it verifies each request with the Standard
 * Webhooks reference library against the secret it was given, and answers what the test asks for next ("500",
 * "hang" or "redirect" for the next requests, then 200). Everything it saw is kept, verified or not.
 */

export type Received = {
  id: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed event when the signature verified, else null. */
  event: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  error: string | null;
};

export type Behaviour = "ok" | "500" | "hang" | "redirect";

export type WebhookReceiver = {
  url: string;
  host: string;
  received: Received[];
  setSecret: (secret: string) => void;
  /** Answers for the next requests, in order; after them, 200. */
  plan: (...next: Behaviour[]) => void;
  /** Answer every request with this until told otherwise. */
  always: (behaviour: Behaviour | null) => void;
  close: () => Promise<void>;
};

export const startWebhookReceiver = async ({ port = 0 }: { port?: number } = {}): Promise<WebhookReceiver> => {
  let secret = "";
  let queue: Behaviour[] = [];
  let fixed: Behaviour | null = null;
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let event: Received["event"] = null;
      let error: string | null = null;
      try {
        event = new Webhook(secret).verify(body, headers) as Received["event"];
      } catch (e) {
        error = (e as Error).message;
      }
      received.push({ id: headers["webhook-id"] ?? "", path: req.url ?? "", headers, body, event, error });
      const behaviour = fixed ?? queue.shift() ?? "ok";
      if (behaviour === "hang") return; // never answers; Quarry's time limit must end the attempt
      if (behaviour === "500") return res.writeHead(500, { "content-type": "text/plain" }).end("receiver is down");
      if (behaviour === "redirect") return res.writeHead(307, { location: "/elsewhere" }).end();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hooks`,
    host: `127.0.0.1:${actual}`,
    received,
    setSecret: (s) => (secret = s),
    plan: (...next) => (queue = next),
    always: (behaviour) => (fixed = behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
