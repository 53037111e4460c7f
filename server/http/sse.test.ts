import { expect, it } from "vitest";
import { sseResponse, typedEventFrame } from "./sse";

const text = (chunks: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(chunks));

it("writes each event in the stream's framing, with its headers, and ends when the producer does", async () => {
  const res = sseResponse<{ type: string; n: number }>({
    produce: async (send) => {
      send({ type: "token", n: 1 });
      send({ type: "done", n: 2 });
    },
    frame: typedEventFrame,
    headers: { "cache-control": "no-store" },
  });
  expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(await res.text()).toBe(
    'event: token\ndata: {"type":"token","n":1}\n\nevent: done\ndata: {"type":"done","n":2}\n\n',
  );
});

it("aborts the producer when the client cancels the stream, and drops what it sends afterwards", async () => {
  let stopped: unknown = null;
  let sendLater: (line: string) => void = () => {};
  const res = sseResponse<string>({
    produce: (send, signal) =>
      new Promise<void>((resolve) => {
        send("first");
        sendLater = send;
        signal.addEventListener("abort", () => {
          stopped = signal.reason;
          resolve();
        });
      }),
    frame: (line) => `data: ${line}\n\n`,
    headers: {},
  });
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(text([first.value!])).toBe("data: first\n\n");
  await reader.cancel();
  expect(stopped).toBeInstanceOf(Error);
  expect(() => sendLater("late")).not.toThrow();
});

it("aborts the producer and ends the stream when the request's signal aborts", async () => {
  const request = new AbortController();
  let aborted = false;
  const res = sseResponse<string>({
    produce: (_send, signal) =>
      new Promise<void>((resolve) => {
        signal.addEventListener("abort", () => {
          aborted = true;
          resolve();
        });
      }),
    frame: (line) => line,
    headers: {},
    signal: request.signal,
  });
  request.abort();
  expect(aborted).toBe(true);
  expect(await res.text()).toBe("");
});
