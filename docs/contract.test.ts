import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/api/CONTRACT.md is the public API the official clients are written against, kept in the repository so every
 * "contract §N" comment in the code leads somewhere. It is kept in step with the shared copy the team works from
 * (../shared/api/CONTRACT.md, present on CI machines).
 */

const ROOT = join(import.meta.dirname, "..");
const CONTRACT = join(ROOT, "docs/api/CONTRACT.md");
const SHARED = join(ROOT, "../shared/api/CONTRACT.md");
const CODE_FOLDERS = ["app", "components", "server", "inngest", "scripts", "bench", "e2e"];

const codeFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "generated") return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });

/** "5", "2.10": the numbers the contract's headings carry; "11.15": item 15 of a section's numbered list. */
const sectionsOf = (markdown: string) => {
  const sections = new Set<string>();
  let chapter = "";
  for (const line of markdown.split("\n")) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line);
    if (heading) {
      sections.add(heading[1]!);
      chapter = heading[1]!.split(".")[0]!;
    }
    const item = /^(\d+)\. /.exec(line);
    if (item && chapter) sections.add(`${chapter}.${item[1]}`);
  }
  return sections;
};

describe("docs/api/CONTRACT.md", () => {
  const contract = readFileSync(CONTRACT, "utf8");

  it("holds every section the code cites", () => {
    const sections = sectionsOf(contract);
    const cited = new Map<string, string>();
    for (const file of CODE_FOLDERS.flatMap((folder) => codeFiles(join(ROOT, folder)))) {
      for (const m of readFileSync(file, "utf8").matchAll(/[Cc]ontract §(\d+(?:\.\d+)?)/g)) {
        cited.set(m[1]!, file.slice(ROOT.length + 1));
      }
    }
    expect(cited.size).toBeGreaterThan(20);
    const missing = [...cited].filter(([section]) => !sections.has(section));
    expect(missing).toEqual([]);
  });

  it("is the shared contract, word for word, where the shared copy is at hand", () => {
    // A user's clone has no ../shared; the check above still runs there.
    if (!existsSync(SHARED)) return;
    expect(contract).toBe(readFileSync(SHARED, "utf8"));
  });
});
