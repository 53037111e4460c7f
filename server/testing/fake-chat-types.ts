/** A chat completion request as the fake OpenAI-compatible server reads it (its scripted parts import this too). */
export type ChatRequestBody = {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: Record<string, unknown> } };
  stream?: boolean;
  max_tokens?: number;
};
