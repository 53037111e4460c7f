import { readFileSync, writeFileSync } from "node:fs";

/**
 * `npm run quarry -- flow ...` (see scripts/quarry.ts): flows are made by the editor or this CLI, never by the public
 * API (contract §11.1). Same services as the app.
 */
export const FLOW_USAGE = `  npm run quarry -- flow create <name> --project <project> [--description <text>]
  npm run quarry -- flow import --project <project> --file <flow.json> [--name <name>] [--replace]
  npm run quarry -- flow export <name> --project <project> [--file <flow.json>]
  npm run quarry -- flow delete <name> --project <project>
  npm run quarry -- flow rollback <name> --project <project> [--revision <revision id>]
  npm run quarry -- flow budget <name> --project <project> [--tokens <n> | --tokens default]
  npm run quarry -- flow cancel <name> --project <project>`;

type Values = {
  project?: string;
  file?: string;
  name?: string;
  description?: string;
  replace?: boolean;
  revision?: string;
  tokens?: string;
};

const projectId = async (name: string | undefined) => {
  if (!name) throw new Error(`--project is required\n${FLOW_USAGE}`);
  const { db } = await import("../server/db");
  const projects = await db.project.findMany({ where: { name }, select: { id: true } });
  if (projects.length !== 1)
    throw new Error(projects.length ? `Several projects are named ${name}` : `No project named ${name}`);
  return projects[0]!.id;
};

export const runFlowCommand = async (action: string | undefined, arg: string | undefined, values: Values) => {
  const service = await import("../server/flows/service");
  const { FlowName } = await import("../server/flows/graph.schema");
  const project = await projectId(values.project);
  const named = () => {
    if (!arg) throw new Error(`flow ${action} needs the flow name\n${FLOW_USAGE}`);
    return arg;
  };
  switch (action) {
    case "create": {
      const name = FlowName.parse(named());
      await service.saveFlow({
        projectId: project,
        name,
        description: values.description,
        graph: { nodes: [], edges: [] },
      });
      process.stderr.write(`Flow ${name} created\n`);
      return;
    }
    case "import": {
      if (!values.file) throw new Error(`--file is required\n${FLOW_USAGE}`);
      const { importFlowFile } = await import("../server/flows/flow-transfer");
      const file = await importFlowFile(project, JSON.parse(readFileSync(values.file, "utf8")), {
        name: values.name,
        replace: values.replace ?? false,
      });
      process.stderr.write(`Flow ${file.name} imported\n`);
      return;
    }
    case "export": {
      const { exportFlowFile } = await import("../server/flows/flow-transfer");
      const text = `${JSON.stringify(await exportFlowFile(project, named()), null, 2)}\n`;
      if (values.file) writeFileSync(values.file, text);
      else process.stdout.write(text);
      return;
    }
    case "delete":
      await service.deleteFlow(project, named());
      process.stderr.write(`Flow ${arg} deleted\n`);
      return;
    case "rollback": {
      const { rollback } = await import("../server/flows/deploy");
      const revision = await rollback(project, named(), values.revision);
      process.stderr.write(`Flow ${arg} serves revision ${revision.number} (${revision.id})\n`);
      return;
    }
    case "budget": {
      const budget = await import("../server/flows/budget");
      if (values.tokens !== undefined) {
        const tokens = values.tokens === "default" ? null : Number(values.tokens);
        await budget.setTokenBudget(project, named(), tokens);
      }
      const plan = await budget.buildEstimate(project, named());
      process.stdout.write(
        `budget ${plan.budget} tokens${plan.flowBudget === null ? " (default)" : ""}; the draft's graphs and trees ` +
          `are estimated at ${plan.tokens} tokens in ${plan.calls} calls\n`,
      );
      return;
    }
    case "cancel": {
      const { cancelFlowDeploy } = await import("../server/flows/budget");
      await cancelFlowDeploy(project, named());
      process.stderr.write(`The deploy of flow ${arg} stops at its next step\n`);
      return;
    }
    default:
      throw new Error(`Usage:\n${FLOW_USAGE}`);
  }
};
