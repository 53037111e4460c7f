import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * `npm run quarry -- testset ...` (see scripts/quarry.ts): a project's evaluation test sets, through the same services
 * as the dashboard. The file's format comes from its extension (.jsonl/.ndjson or .csv) unless --format says.
 */
export const TESTSET_USAGE = `  npm run quarry -- testset import --project <project> --file <cases.jsonl|cases.csv> [--name <name>] [--format jsonl|csv] [--replace]
  npm run quarry -- testset list --project <project>
  npm run quarry -- testset delete <name> --project <project>`;

type Values = { project?: string; file?: string; name?: string; format?: string; replace?: boolean };

const projectId = async (name: string | undefined) => {
  if (!name) throw new Error(`--project is required\n${TESTSET_USAGE}`);
  const { db } = await import("../server/db");
  const projects = await db.project.findMany({ where: { name }, select: { id: true } });
  if (projects.length !== 1)
    throw new Error(projects.length ? `Several projects are named ${name}` : `No project named ${name}`);
  return projects[0]!.id;
};

export const runTestSetCommand = async (action: string | undefined, arg: string | undefined, values: Values) => {
  const service = await import("../server/evaluation/testsets");
  const { formatOfFileName, TESTSET_LIMITS } = await import("../server/evaluation/testset-parse");
  const project = await projectId(values.project);
  switch (action) {
    case "import": {
      if (!values.file) throw new Error(`--file is required\n${TESTSET_USAGE}`);
      const format = values.format ?? formatOfFileName(values.file);
      if (format !== "jsonl" && format !== "csv")
        throw new Error("Give the format with --format jsonl|csv (the file name ends in neither .jsonl nor .csv)");
      if (statSync(values.file).size > TESTSET_LIMITS.fileBytes)
        throw new Error(`A test set file may hold at most ${TESTSET_LIMITS.fileBytes / 1024 / 1024} MB`);
      const name = values.name ?? path.basename(values.file).replace(/\.[^.]+$/, "");
      const set = await service.importTestSet({
        projectId: project,
        name,
        content: readFileSync(values.file, "utf8"),
        format,
        replace: values.replace ?? false,
      });
      process.stderr.write(`Test set ${set.name} imported: ${set.caseCount} cases\n`);
      process.stdout.write(`${set.id}\n`);
      return;
    }
    case "list": {
      for (const set of await service.listTestSets(project))
        process.stdout.write(`${set.name}\t${set.caseCount} cases\t${set.createdAt.toISOString()}\t${set.id}\n`);
      return;
    }
    case "delete": {
      if (!arg) throw new Error(`testset delete needs the test set's name\n${TESTSET_USAGE}`);
      const deleted = await service.deleteTestSet(project, arg);
      process.stderr.write(`Test set ${deleted.name} deleted\n`);
      return;
    }
    default:
      throw new Error(TESTSET_USAGE);
  }
};
