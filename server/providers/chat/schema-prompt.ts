/** For servers without native json_schema: the schema goes into the prompt and JSON mode keeps the reply JSON. */
export const schemaInstruction = (schema: Record<string, unknown>) =>
  "Reply with one JSON object only, no prose and no code fences. It must be valid against this JSON Schema:\n" +
  JSON.stringify(schema);
