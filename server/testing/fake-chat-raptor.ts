import type { ChatRequestBody } from "./fake-chat-types";

/**
 * The stand-in model's answer to a RAPTOR cluster summary (server/raptor/summarize.ts): computed from the request
 * like a model's, the first sentence of each numbered passage (at most four) joined into one paragraph, so numbers
 * appear only as the passages wrote them. Null for any other request.
 */
export const raptorReply = (body: ChatRequestBody): string | null => {
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  if (!/summarise a cluster of passages/i.test(system)) return null;
  const user = body.messages.findLast((m) => m.role === "user")?.content ?? "";
  const quoted = /"""\n([\s\S]*)\n"""/.exec(user)?.[1] ?? "";
  const passages = quoted.split(/\n\n(?=\[\d+\] )/).map((p) =>
    p
      .replace(/^\[\d+\] /, "")
      .replace(/\s+/g, " ")
      .trim(),
  );
  const firsts = passages.map((p) => p.split(/(?<=[.!?])\s+/)[0]!.trim()).filter(Boolean);
  return `The passages cover: ${firsts.slice(0, 4).join(" ")}`;
};
