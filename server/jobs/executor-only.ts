import { env, jobRunner } from "@/server/env";
import { hasValidSignature, SIGNATURE_HEADER } from "./inngest-sdk";

/**
 * `/api/inngest` when jobs run on the local executor: the executor in this process is its only caller, and it signs
 * every call with the signing key generated at start (job-runner.ts). Only a POST carrying that signature reaches
 * `serve()`; GET (introspection) and PUT (registration with an Inngest server, which would be the app's own event
 * endpoint here) are not part of the executor's protocol. Refusals happen before the SDK sees the request, so a
 * stranger's call neither makes the server send anything nor puts the SDK's error text in the answer or an error in
 * the log. With an Inngest server (QUARRY_JOB_RUNNER=inngest) every method goes to `serve()`, as the SDK documents.
 */

type Handler<R extends Request> = (req: R) => Promise<Response>;
export type ServeHandlers<R extends Request = Request> = { GET: Handler<R>; POST: Handler<R>; PUT: Handler<R> };

const json = (status: number, detail: string, headers?: Record<string, string>) =>
  Response.json({ detail }, { status, headers });

const methodNotAllowed = () => json(405, "Method Not Allowed", { Allow: "POST" });
const unauthorized = () => json(401, "Invalid authentication credentials");

export const executorOnly = <R extends Request>(
  handlers: ServeHandlers<R>,
  {
    runner = jobRunner,
    signingKey = () => env.INNGEST_SIGNING_KEY,
  }: { runner?: () => "local" | "inngest"; signingKey?: () => string | undefined } = {},
): ServeHandlers<R> => {
  const local = () => runner() === "local";
  return {
    GET: (req) => (local() ? Promise.resolve(methodNotAllowed()) : handlers.GET(req)),
    PUT: (req) => (local() ? Promise.resolve(methodNotAllowed()) : handlers.PUT(req)),
    POST: async (req) => {
      if (!local()) return handlers.POST(req);
      const key = signingKey();
      // Without a key there is no executor in this process (e.g. `next start` without the launcher): nobody to answer.
      if (!key) return unauthorized();
      const body = await req.clone().text();
      if (!hasValidSignature(body, req.headers.get(SIGNATURE_HEADER), key)) return unauthorized();
      return handlers.POST(req);
    },
  };
};
