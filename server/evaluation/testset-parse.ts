import Papa from "papaparse";
import { AppError } from "../errors";
import { isUuid } from "../ids";

/**
 * Test-set files, JSONL or CSV, read into cases (pure). Fields (JSONL keys / CSV header names):
 *   question            required (RAGAS name `user_input` accepted)
 *   expected_answer     optional (`reference`, `ground_truth`, `answer` accepted)
 *   relevant_file_ids   optional list of source ids (file_id)
 *   relevant_files      optional list of source file names, resolved to ids on import
 *   relevant_passages   optional list of passage texts (`reference_contexts` accepted)
 * CSV is comma-separated with a header row (UTF-8, RFC 4180 quoting). In CSV a list cell is a JSON array (`["a","b"]`) or values separated by `|`. A bad row is refused with its line.
 */

export const TESTSET_LIMITS = {
  fileBytes: 10 * 1024 * 1024,
  cases: 10_000,
  questionChars: 10_000,
  answerChars: 20_000,
  listItems: 100,
  passageChars: 20_000,
} as const;

export type ParsedCase = {
  question: string;
  expectedAnswer: string;
  relevantFileIds: string[];
  relevantFiles: string[];
  relevantPassages: string[];
  /** 1-based line of the row in the file, for error messages. */
  line: number;
};

export type TestSetFormat = "jsonl" | "csv";

const ALIASES: Record<string, string[]> = {
  question: ["question", "user_input", "query"],
  expected_answer: ["expected_answer", "reference", "ground_truth", "answer"],
  relevant_file_ids: ["relevant_file_ids", "file_ids"],
  relevant_files: ["relevant_files", "files"],
  relevant_passages: ["relevant_passages", "reference_contexts", "passages"],
};

const bad = (line: number, message: string): never => {
  throw new AppError("BAD_REQUEST", `Line ${line}: ${message}`);
};

const pick = (row: Record<string, unknown>, field: string) => {
  for (const key of ALIASES[field]!)
    if (row[key] !== undefined && row[key] !== null && row[key] !== "") return row[key];
  return undefined;
};

const text = (value: unknown, field: string, line: number, max: number): string => {
  if (value === undefined) return "";
  if (typeof value !== "string" && typeof value !== "number") return bad(line, `${field} must be a string`);
  const s = String(value).trim();
  if (s.includes("\u0000")) bad(line, `${field} holds a NUL character`);
  if (s.length > max) bad(line, `${field} is longer than ${max} characters`);
  return s;
};

const list = (value: unknown, field: string, line: number, csv: boolean): string[] => {
  if (value === undefined) return [];
  let items: unknown = value;
  if (csv && typeof value === "string") {
    const cell = value.trim();
    if (cell.startsWith("[")) {
      try {
        items = JSON.parse(cell);
      } catch {
        return bad(line, `${field} is not a valid JSON array`);
      }
    } else items = cell.split("|");
  }
  if (!Array.isArray(items)) return bad(line, `${field} must be a list of strings`);
  if (items.length > TESTSET_LIMITS.listItems) bad(line, `${field} has more than ${TESTSET_LIMITS.listItems} items`);
  return items
    .map((item) => {
      if (typeof item !== "string" && typeof item !== "number") return bad(line, `${field} must be a list of strings`);
      return text(item, field, line, TESTSET_LIMITS.passageChars);
    })
    .filter(Boolean);
};

const toCase = (row: Record<string, unknown>, line: number, csv: boolean): ParsedCase => {
  const question = text(pick(row, "question"), "question", line, TESTSET_LIMITS.questionChars);
  if (!question) bad(line, "question is required");
  const relevantFileIds = list(pick(row, "relevant_file_ids"), "relevant_file_ids", line, csv);
  const wrong = relevantFileIds.find((id) => !isUuid(id));
  if (wrong) bad(line, `relevant_file_ids: '${wrong}' is not a file id`);
  return {
    question,
    expectedAnswer: text(pick(row, "expected_answer"), "expected_answer", line, TESTSET_LIMITS.answerChars),
    relevantFileIds,
    relevantFiles: list(pick(row, "relevant_files"), "relevant_files", line, csv),
    relevantPassages: list(pick(row, "relevant_passages"), "relevant_passages", line, csv),
    line,
  };
};

const parseJsonl = (content: string): ParsedCase[] => {
  const cases: ParsedCase[] = [];
  content.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      return bad(i + 1, "not valid JSON");
    }
    if (!row || typeof row !== "object" || Array.isArray(row)) return bad(i + 1, "each line must be a JSON object");
    cases.push(toCase(row as Record<string, unknown>, i + 1, false));
  });
  return cases;
};

const parseCsv = (content: string): ParsedCase[] => {
  const parsed = Papa.parse<string[]>(content.replace(/^\uFEFF/, ""), { delimiter: ",", skipEmptyLines: "greedy" });
  const rows = parsed.data;
  const error = parsed.errors.find((e) => e.type === "Quotes");
  if (error) bad((error.row ?? 0) + 1, `CSV: ${error.message}`);
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  if (!header.some((h) => ALIASES.question!.includes(h)))
    throw new AppError("BAD_REQUEST", "Line 1: the CSV header must name a question column");
  // Line numbers follow the file, counting the newlines inside quoted cells.
  let line = 1 + (rows[0] ? newlinesIn(rows[0]) : 0);
  return rows.slice(1).map((cells) => {
    line += 1;
    const start = line;
    line += newlinesIn(cells);
    if (cells.length > header.length) bad(start, `${cells.length} columns, the header has ${header.length}`);
    return toCase(Object.fromEntries(header.map((h, i) => [h, cells[i]])), start, true);
  });
};

const newlinesIn = (cells: string[]) => cells.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);

/** The format named by a file name, when it has a known extension. */
export const formatOfFileName = (name: string): TestSetFormat | null =>
  /\.jsonl$|\.ndjson$/i.test(name) ? "jsonl" : /\.csv$/i.test(name) ? "csv" : null;

export const parseTestSet = (content: string, format: TestSetFormat): ParsedCase[] => {
  if (Buffer.byteLength(content) > TESTSET_LIMITS.fileBytes)
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `A test set file may hold at most ${TESTSET_LIMITS.fileBytes / 1024 / 1024} MB`,
    );
  const cases = format === "jsonl" ? parseJsonl(content) : parseCsv(content);
  if (!cases.length) throw new AppError("BAD_REQUEST", "The test set has no cases");
  if (cases.length > TESTSET_LIMITS.cases)
    throw new AppError(
      "BAD_REQUEST",
      `A test set may hold at most ${TESTSET_LIMITS.cases} cases (${cases.length} given)`,
    );
  return cases;
};
