import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** Adapts a Node request to a web Request (for handlers written against fetch's types). */
export const toWebRequest = (req: IncomingMessage, origin: string): Request => {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // @ts-expect-error Node's fetch needs this for streamed request bodies; the DOM types do not know it.
    duplex: "half",
  });
};

export const sendWebResponse = async (res: ServerResponse, response: Response) => {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  res.end(Buffer.from(await response.arrayBuffer()));
};

/** What may still arrive of a refused request's body before its connection is closed. */
const UNREAD_BODY_GRACE = { bytes: 256 * 1024, ms: 2000 };

/**
 * A response sent before its request's body was read (401 before auth, 413, 429, a 400 on a form field) ends the
 * connection once a little more of the body has arrived. Node would otherwise read and discard all the rest to keep
 * the connection alive, so a client could stream gigabytes into a refused request. The grace lets a small body
 * finish (its connection stays usable) and lets a client that reads answers early see the answer, not a reset.
 */
export const closeAfterUnreadBody = (req: IncomingMessage, res: ServerResponse) => {
  res.once("finish", () => {
    if (req.complete) return;
    const socket = req.socket;
    let extra = 0;
    const cut = () => {
      if (!req.complete) socket.destroy();
    };
    const timer = setTimeout(cut, UNREAD_BODY_GRACE.ms);
    timer.unref();
    // Whoever was reading the body is done with it: read the rest here and drop it, as Node's own drain would,
    // but only up to the grace. A body that ends within it leaves a connection the client may reuse.
    req.removeAllListeners("data");
    req.on("data", (chunk: Buffer) => {
      extra += chunk.length;
      if (extra > UNREAD_BODY_GRACE.bytes) cut();
    });
    req.resume();
    req.once("end", () => clearTimeout(timer));
    socket.once("close", () => clearTimeout(timer));
  });
};

/** Starts listening, or throws a sentence a person can act on (a busy port is the usual reason). */
export const listenOrFail = (server: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `Port ${port} on ${host} is already in use: stop what uses it or set PORT to another port`
            : `Could not listen on ${host}:${port}: ${error.message}`,
        ),
      );
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
