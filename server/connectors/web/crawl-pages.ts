import { createHash } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { lookAtPage } from "../page-checks";
import { putSnapshotFile } from "../snapshot";
import { follow, ingested, skip, type Crawl, type PageFate } from "./crawl-state";
import { httpStatusText, type Resource } from "./resource";

/**
 * What a crawl does with one fetched URL: challenge pages and JavaScript-only shells are never stored, duplicates
 * (same visible text, same file bytes) are skipped, and what is worth keeping goes into the snapshot.
 */

/** Streams a file into the snapshot while hashing it. */
const storeHashed = async (folder: string, file: string, stream: Readable) => {
  const hash = createHash("sha256");
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const { key, size } = await putSnapshotFile(folder, file, stream.pipe(tap));
  return { key, size, sha256: hash.digest("hex") };
};

const pageFile = (n: number, ext: string) => `page-${String(n).padStart(4, "0")}.${ext}`;

type Fetched<K extends Resource["kind"]> = Extract<Resource, { kind: K }>;

const keepFile = async (crawl: Crawl, resource: Fetched<"file">, fate: PageFate) => {
  const { ctx, documents } = crawl;
  if (fate.depth === 0) {
    // The start URL is a file: it is the source, parsed like an upload.
    const stored = await storeHashed(ctx.folder, `original.${resource.fileType}`, resource.stream);
    crawl.startFile = { key: stored.key, size: stored.size, fileType: resource.fileType, mime: resource.mime };
    ingested(crawl, fate, 1);
    return;
  }
  const n = documents.length + 1;
  const file = pageFile(n, resource.fileType);
  const stored = await storeHashed(ctx.folder, file, resource.stream);
  const twin = crawl.byHash.get(stored.sha256);
  if (twin) {
    skip(crawl, fate, "duplicate", `same file as ${twin}`);
    return;
  }
  crawl.byHash.set(stored.sha256, fate.url);
  documents.push({
    file,
    size: stored.size,
    name: fate.url,
    type: resource.fileType,
    pageNumber: n,
    metadata: { url: resource.url },
  });
  crawl.totalBytes += stored.size;
  ingested(crawl, fate, n);
};

const keepHtml = async (crawl: Crawl, resource: Fetched<"html">, fate: PageFate) => {
  const look = lookAtPage({
    bytes: resource.bytes,
    url: resource.url,
    headers: resource.headers,
    charset: resource.charset,
  });
  fate.title = look.title;
  if (look.challenge) return skip(crawl, fate, "challenge", `bot-challenge page (${look.challenge})`);
  if (look.javascriptOnly) return skip(crawl, fate, "javascript_only", `JavaScript-only page: ${look.javascriptOnly}`);
  const twin = crawl.byHash.get(look.textHash);
  if (twin) return skip(crawl, fate, "duplicate", `same text as ${twin}`);
  crawl.byHash.set(look.textHash, fate.url);
  const n = crawl.documents.length + 1;
  const file = pageFile(n, "html");
  const { size } = await putSnapshotFile(crawl.ctx.folder, file, resource.bytes);
  crawl.documents.push({
    file,
    size,
    name: resource.url,
    type: "webpage",
    url: resource.url,
    charset: resource.charset,
    pageNumber: n,
    metadata: { url: resource.url },
  });
  crawl.totalBytes += size;
  ingested(crawl, fate, n);
  follow(crawl, look.links, fate.depth);
};

/** Decides the fate of one fetched URL and stores what is worth keeping. */
export const keepResource = async (crawl: Crawl, resource: Resource, fate: PageFate) => {
  switch (resource.kind) {
    case "http-error": {
      const look = lookAtPage({
        bytes: resource.bytes,
        url: resource.url,
        headers: resource.headers,
        charset: resource.charset,
      });
      if (look.challenge)
        skip(crawl, fate, "challenge", `bot-challenge page (${look.challenge}), ${httpStatusText(resource.status)}`);
      else skip(crawl, fate, "fetch_error", httpStatusText(resource.status));
      return;
    }
    case "unsupported":
      skip(crawl, fate, "not_html", `not HTML and not a supported file type (${resource.what})`);
      return;
    case "file":
      return keepFile(crawl, resource, fate);
    case "html":
      return keepHtml(crawl, resource, fate);
  }
};
