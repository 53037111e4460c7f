import { env } from "../env";

/** Helpers of the flow routes (contract §7): the same handlers serve the path form and the host form. */

export type FlowParams = { params: Promise<{ flowName: string; kind?: string; nodeId?: string }> };

/** Where public URLs point: QUARRY_PUBLIC_URL, else the address this request was sent to. */
export const requestOrigin = (req: Request) => {
  if (env.QUARRY_PUBLIC_URL) return env.QUARRY_PUBLIC_URL.replace(/\/$/, "");
  const host = req.headers.get("host");
  const url = new URL(req.url);
  return host ? `${url.protocol}//${host}` : url.origin;
};
