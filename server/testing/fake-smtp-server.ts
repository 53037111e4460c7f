import { createServer, type Server } from "node:net";

/**
 * A stand-in SMTP server on loopback (no mail server exists here): speaks enough of RFC 5321 for a real client to
 * deliver one message, and keeps what it received.
 */
export type FakeSmtp = {
  url: string;
  messages: { from: string; to: string[]; data: string }[];
  close: () => Promise<void>;
};

export const startFakeSmtp = async (): Promise<FakeSmtp> => {
  const messages: FakeSmtp["messages"] = [];
  const server: Server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake-smtp ready");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            messages.push(current);
            current = { from: "", to: [], data: "" };
            reply("250 queued");
          } else current.data += `${line.startsWith("..") ? line.slice(1) : line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "MAIL") current.from = line.slice(10).trim();
        if (verb === "RCPT") current.to.push(line.slice(8).trim());
        if (verb === "DATA") {
          inData = true;
          reply("354 end with .");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else reply(verb === "EHLO" || verb === "HELO" ? "250 fake-smtp" : "250 ok");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as { port: number }).port}`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
