import { runOffThread } from "../../concurrency/cpu-thread";
import type { Embedder } from "./types";

/** The local embedder is CPU work too (a remote one waits on the network and stays here). */
export const embedTexts = (embedder: Embedder, texts: string[]) =>
  embedder.provider === "local"
    ? runOffThread<number[][]>("server/providers/embedding/local-embedder.ts", "embedTextsLocally", [texts])
    : embedder.embed(texts);
