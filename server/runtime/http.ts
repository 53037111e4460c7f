import type { IncomingMessage, ServerResponse } from "node:http";
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
