/**
 * The LLM models the contract names (§2.10) and who serves them. A flow's llm node picks one of these; the chat
 * registry maps it to OpenAI or Groq when that provider has a key.
 */
export type CatalogModel = {
  id: string;
  provider: "openai" | "groq";
  contextTokens: number;
  nativeJsonSchema: boolean;
};

export const CHAT_MODELS: readonly CatalogModel[] = [
  { id: "gpt-4o", provider: "openai", contextTokens: 128_000, nativeJsonSchema: true },
  { id: "gpt-4o-mini", provider: "openai", contextTokens: 128_000, nativeJsonSchema: true },
  { id: "gpt-4.1", provider: "openai", contextTokens: 128_000, nativeJsonSchema: true },
  { id: "gpt-4.1-mini", provider: "openai", contextTokens: 128_000, nativeJsonSchema: true },
  { id: "gpt-4.1-nano", provider: "openai", contextTokens: 128_000, nativeJsonSchema: true },
  // json_schema response formats came after this snapshot; JSON mode works.
  { id: "gpt-3.5-turbo-0125", provider: "openai", contextTokens: 16_385, nativeJsonSchema: false },
  { id: "mixtral-8x7b-32768", provider: "groq", contextTokens: 32_768, nativeJsonSchema: false },
  { id: "llama-3.1-8b-instant", provider: "groq", contextTokens: 8_192, nativeJsonSchema: false },
];

export const CHAT_MODEL_IDS = CHAT_MODELS.map((m) => m.id);

export const catalogModel = (id: string) => CHAT_MODELS.find((m) => m.id === id) ?? null;
