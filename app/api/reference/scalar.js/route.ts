import { readFile } from "node:fs/promises";
import path from "node:path";
import { notAllowed } from "@/server/public-api/public-route";

export const dynamic = "force-dynamic";

/**
 * Scalar's browser bundle for the dashboard's API reference page, served by the app itself: no CDN, so the page
 * works offline and the pages' script policy (self + nonce) needs no outside host.
 */
const BUNDLE = path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js");

export const GET = async () =>
  new Response(await readFile(BUNDLE), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
export const { POST, PUT, PATCH, DELETE } = notAllowed;
