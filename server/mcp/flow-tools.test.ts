import { describe, expect, it } from "vitest";
import { flowResultText, flowToolDescription, flowToolName } from "./flow-tools";

const flow = {
  name: "answers",
  description: null,
  revisionId: "r1",
  toolDescription: null,
  steps: ["Dataset", "Retrieval", "Response"],
};

describe("flow tools", () => {
  it("keeps the flow's name unless a sources tool has it", () => {
    expect(flowToolName("answers", new Set(["ask"]))).toBe("answers");
    expect(flowToolName("ask", new Set(["ask"]))).toBe("ask-flow");
  });

  it("describes a flow by its tool description, or by its description and steps", () => {
    expect(flowToolDescription({ ...flow, toolDescription: "Answers from the handbook." })).toBe(
      "Answers from the handbook.",
    );
    const generated = flowToolDescription({ ...flow, description: "Handbook answers." });
    expect(generated).toMatch(/^Handbook answers\. Quarry flow "answers"/);
    expect(generated).toMatch(/It runs Dataset → Retrieval → Response\.$/);
  });

  it("answers with the answer and its citations, or with the retrieved items", () => {
    const item = { page_content: "Granite.", metadata: { source: "notes.md", page: 2, relevance_score: 0.5 } };
    expect(
      flowResultText({
        items: [item],
        total: 1,
        answer: "Granite [1].",
        citations: [{ index: 1, file_name: "notes.md", page_number: 2, text_preview: "Granite." }],
      }),
    ).toBe("Granite [1].\n\nCitations:\n[1] notes.md, page 2: Granite.");
    expect(flowResultText({ items: [item], total: 4 })).toBe(
      "4 item(s); the first 1:\n\n1. notes.md, page 2 (score 0.500)\nGranite.",
    );
    expect(flowResultText({ items: [], total: 0 })).toBe("The flow found nothing for this query.");
  });
});
