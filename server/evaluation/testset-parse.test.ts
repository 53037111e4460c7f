import { describe, expect, it } from "vitest";
import { parseTestSet, TESTSET_LIMITS } from "./testset-parse";

/** Test-set files: JSONL and CSV fields, aliases, lists, and refusals that name the line. */

const ID = "0b7c5e59-8d7a-4b52-9a38-3f1c3c2f9d10";

describe("JSONL", () => {
  it("reads fields and RAGAS aliases, skipping blank lines", () => {
    const cases = parseTestSet(
      [
        JSON.stringify({ question: "Q1?", expected_answer: "A1", relevant_file_ids: [ID], relevant_passages: ["p"] }),
        "",
        JSON.stringify({ user_input: "Q2?", reference: "A2", relevant_files: ["granite.md"] }),
      ].join("\n"),
      "jsonl",
    );
    expect(cases).toEqual([
      {
        question: "Q1?",
        expectedAnswer: "A1",
        relevantFileIds: [ID],
        relevantFiles: [],
        relevantPassages: ["p"],
        line: 1,
      },
      {
        question: "Q2?",
        expectedAnswer: "A2",
        relevantFileIds: [],
        relevantFiles: ["granite.md"],
        relevantPassages: [],
        line: 3,
      },
    ]);
  });
  it("names the line of a bad row", () => {
    expect(() => parseTestSet('{"question":"ok"}\n{"question": ', "jsonl")).toThrow("Line 2: not valid JSON");
    expect(() => parseTestSet('{"question":"ok"}\n{"expected_answer":"x"}', "jsonl")).toThrow(
      "Line 2: question is required",
    );
    expect(() => parseTestSet('{"question":"q","relevant_file_ids":["nope"]}', "jsonl")).toThrow(
      "Line 1: relevant_file_ids: 'nope' is not a file id",
    );
    expect(() => parseTestSet('["q"]', "jsonl")).toThrow("Line 1: each line must be a JSON object");
    expect(() => parseTestSet('{"question":"q","relevant_passages":"p"}', "jsonl")).toThrow(
      "Line 1: relevant_passages must be a list of strings",
    );
  });
  it("refuses empty and oversized sets", () => {
    expect(() => parseTestSet("\n\n", "jsonl")).toThrow("The test set has no cases");
    const many = Array.from({ length: TESTSET_LIMITS.cases + 1 }, () => '{"question":"q"}').join("\n");
    expect(() => parseTestSet(many, "jsonl")).toThrow(`at most ${TESTSET_LIMITS.cases} cases`);
    expect(() => parseTestSet(`{"question":"${"x".repeat(TESTSET_LIMITS.questionChars + 1)}"}`, "jsonl")).toThrow(
      "Line 1: question is longer than",
    );
  });
});

describe("CSV", () => {
  it("reads a header, quoted cells with newlines, | lists and JSON-array cells", () => {
    const csv = [
      "question,expected_answer,relevant_file_ids,relevant_passages",
      `"How are blocks cut?","With wire
saws.",${ID},"[""a | b"",""c""]"`,
      "What is basalt for?,Gravel,,x|y",
    ].join("\n");
    const cases = parseTestSet(csv, "csv");
    expect(cases[0]).toMatchObject({
      question: "How are blocks cut?",
      expectedAnswer: "With wire\nsaws.",
      relevantFileIds: [ID],
      relevantPassages: ["a | b", "c"],
      line: 2,
    });
    expect(cases[1]).toMatchObject({ question: "What is basalt for?", relevantPassages: ["x", "y"], line: 4 });
  });
  it("names the line of a bad row and needs a question column", () => {
    expect(() => parseTestSet("question,expected_answer\nq1,a1\n,a2", "csv")).toThrow("Line 3: question is required");
    expect(() => parseTestSet("query_text,answer\nq,a", "csv")).toThrow(
      "Line 1: the CSV header must name a question column",
    );
    expect(() => parseTestSet("question\nq1,extra", "csv")).toThrow("Line 2: 2 columns, the header has 1");
  });
});
