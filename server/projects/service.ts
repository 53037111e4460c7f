import { db } from "../db";
import { AppError } from "../errors";
import { defaultTeam } from "../teams/service";

const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/;

export const assertProjectName = (name: string) => {
  if (!PROJECT_NAME.test(name)) {
    throw new AppError(
      "BAD_REQUEST",
      "Project names are 1-63 characters: letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
    );
  }
};

export const getProject = async (projectId: string) => {
  const project = await db.project.findUnique({ where: { id: projectId } });
  if (!project) throw new AppError("NOT_FOUND", "Project not found");
  return project;
};

/**
 * Returns the team's project with that name, creating it when missing (idempotent under concurrent calls). Without
 * a team, the default team: projects made by the first start, QUARRY_INIT_TOKEN and the CLI belong to it.
 */
export const ensureProject = async (name: string, teamId?: string) => {
  assertProjectName(name);
  const team = teamId ?? (await defaultTeam()).id;
  return db.project.upsert({
    where: { teamId_name: { teamId: team, name } },
    create: { name, teamId: team },
    update: {},
  });
};

/** A new project in a team; a name the team already uses is a conflict. */
export const createProject = async ({ teamId, name }: { teamId: string; name: string }) => {
  assertProjectName(name);
  const existing = await db.project.findUnique({ where: { teamId_name: { teamId, name } } });
  if (existing) throw new AppError("CONFLICT", `This team already has a project named '${name}'`);
  return db.project.create({ data: { teamId, name } });
};

/** A new name for a project; a name the team already uses is a conflict. */
export const renameProject = async ({ projectId, name }: { projectId: string; name: string }) => {
  assertProjectName(name);
  const project = await getProject(projectId);
  if (project.name === name) return project;
  const taken = await db.project.findUnique({ where: { teamId_name: { teamId: project.teamId, name } } });
  if (taken) throw new AppError("CONFLICT", `This team already has a project named '${name}'`);
  return db.project.update({ where: { id: projectId }, data: { name } });
};

export const listProjects = () => db.project.findMany({ orderBy: { createdAt: "asc" } });
