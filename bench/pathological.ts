import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";
import { countTokens } from "@/server/chunking/tokens";
import { partitionDocument } from "@/server/parsing/partition";
import { renderPageImage } from "@/server/parsing/page-image";
import { pdfDoc } from "@/server/testing/fixtures";
import { deeplyNested } from "@/server/testing/pathological-pdfs";
import { fmt, table } from "./stats";

/**
 * `BENCH_ONLY=pathological`: the speed of two inputs that once hung a build, each next to a reference measured in
 * the same run (the unit tests check only what they produce; server/chunking/chunk.test.ts and
 * server/parsing/pdf/pathological.test.ts). Tokens: 9,200 characters of runs without spaces (counted slice by
 * slice) next to as many characters of prose, and a 1,000-character run through js-tiktoken whole (BPE quadratic in
 * a run's length). PDF: a page of 200,000 nested graphics states next to the same PDF without them.
 */

const timed = async <T>(work: () => T | Promise<T>) => {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
};

export const benchPathological = async () => {
  countTokens("warm up"); // the ranks load on first use (about half a second), not in the first figure
  const runs = "日本語のテキストを分割します".repeat(300) + " " + "=".repeat(5000);
  const prose = "The quarry's sandstone was cut in blocks, then carried to the harbour. "
    .repeat(130)
    .slice(0, runs.length);
  const whole = new Tiktoken(cl100kBase);
  const longRun = "日本語のテキストを分割します".repeat(72);
  const tokenRows = [
    ["9,200 chars of runs without spaces (Quarry, sliced)", await timed(() => countTokens(runs))],
    ["9,200 chars of prose (reference)", await timed(() => countTokens(prose))],
    [`${longRun.length} chars of one run, js-tiktoken whole`, await timed(() => whole.encode(longRun).length)],
    [`${longRun.length} chars of one run (Quarry, sliced)`, await timed(() => countTokens(longRun))],
  ] as const;

  const nested = await deeplyNested(200_000);
  const plain = await pdfDoc({ pages: 2 });
  const pdfRows: [string, { ms: number; result: number }][] = [];
  for (const method of ["basic", "auto"] as const) {
    for (const [name, bytes] of [
      ["200,000 nested states", nested],
      ["same PDF, no nesting (reference)", plain],
    ] as const) {
      const run = await timed(() => partitionDocument({ bytes, fileName: "p.pdf", fileType: "pdf", method }));
      pdfRows.push([`partition ${method}: ${name}`, { ms: run.ms, result: run.result.elements.length }]);
    }
  }
  for (const [name, bytes] of [
    ["200,000 nested states", nested],
    ["same PDF, no nesting (reference)", plain],
  ] as const) {
    const run = await timed(() => renderPageImage({ bytes, fileType: "pdf", pageNumber: 2, width: 300 }));
    pdfRows.push([`page 2 image: ${name}`, { ms: run.ms, result: run.result.width }]);
  }

  return [
    "Pathological inputs, each next to a reference measured in this run:",
    table([
      ["input", "ms", "tokens / elements / px"],
      ...[...tokenRows, ...pdfRows].map(([name, run]) => [name, fmt(run.ms, 0), run.result]),
    ]),
  ].join("\n");
};
