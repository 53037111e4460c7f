import http from "node:http";
import https from "node:https";

/** A POST that waits as long as the answer takes, for the executor's calls to `serve()`. */

const keepAlive = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * node:http rather than fetch: undici's fetch aborts after 300 s without response headers, and a step (one HTTP
 * call) may legitimately run longer. A timeout there would look like a dead endpoint and re-run the step forever.
 */
export const post = (url: URL, headers: Record<string, string>, body: string, signal?: AbortSignal) =>
  new Promise<RawResponse>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(
      url,
      { method: "POST", headers, agent: url.protocol === "https:" ? keepAlive.https : keepAlive.http, signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
