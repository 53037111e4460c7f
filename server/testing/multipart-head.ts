import { request } from "node:http";

/**
 * A multipart POST that sends its headers and at most a boundary line, never a whole body: for the upload routes'
 * refusals of a body without a length (chunked) or with a length over the limit, which must answer before reading it.
 */
export const multipartHead = (url: string, token: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "multipart/form-data; boundary=x", ...headers },
      },
      (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    if (headers["Transfer-Encoding"]) req.write("--x\r\n");
    req.end();
  });
