import { request } from "node:http";

/**
 * Test helper: calls the flow service (contract §7) in either address form. The host form sends
 * `Host: <flow>.flows.quarry.test` through node:http (fetch always sends the URL's own host).
 */
export type FlowForm = "path" | "host";

export const flowCall = (
  base: string,
  token: string,
  form: FlowForm,
  flow: string | null,
  method: string,
  suffix: string,
  body?: unknown,
) =>
  new Promise<{
    status: number;
    text: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read field by field
    json: () => any;
  }>((resolve, reject) => {
    const url = new URL(base);
    const path = form === "path" ? `/api/public/v1/flows${flow === null ? "" : `/${flow}`}${suffix}` : suffix || "/";
    const host = form === "path" ? url.host : `${flow === null ? "" : `${flow}.`}flows.quarry.test:${url.port}`;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          host,
          authorization: `Bearer ${token}`,
          ...(payload ? { "content-type": "application/json", "content-length": String(payload.length) } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
