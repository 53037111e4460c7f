import { errorMessage } from "../../errors";
import { approxTokens, recordModelCall } from "../usage";
import type { ChatMessage, ChatUsage } from "./types";

/** What one chat call spent, recorded for the usage page (../usage.ts): the server's usage, else an estimate. */

const promptText = (messages: ChatMessage[]) =>
  messages
    .map((m) =>
      typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
    )
    .join("\n");

export type ChatCallOutcome =
  | { ok: true; usage: ChatUsage; reply: string }
  /** `reply`: what a stream sent before it failed or was stopped (it was generated, so it was paid for). */
  | { ok: false; error: unknown; reply?: string };

export const recordChatCall = (
  call: { capability: "chat" | "vision"; provider: string; model: string; messages: ChatMessage[]; started: number },
  outcome: ChatCallOutcome,
) => {
  const reported = outcome.ok && (outcome.usage.tokensIn > 0 || outcome.usage.tokensOut > 0);
  const partial = !outcome.ok && Boolean(outcome.reply);
  recordModelCall({
    capability: call.capability,
    provider: call.provider,
    model: call.model,
    // A failed call that produced nothing is not charged; a stream cut short is, by estimate.
    tokensIn: reported ? outcome.usage.tokensIn : outcome.ok || partial ? approxTokens(promptText(call.messages)) : 0,
    tokensOut: reported ? outcome.usage.tokensOut : approxTokens(outcome.reply ?? ""),
    estimated: !reported && (outcome.ok || partial),
    latencyMs: Math.round(performance.now() - call.started),
    ok: outcome.ok,
    error: outcome.ok ? null : errorMessage(outcome.error),
  });
};
