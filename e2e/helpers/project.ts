import { expect, type Page } from "@playwright/test";
import { trpc } from "./dashboard";

/** The default team's card on the projects page (opened first). */
export const openDefaultTeam = async (page: Page) => {
  await page.goto("/");
  return page.getByRole("region", { name: "Team Default team" });
};

/** Opens the project the first start made in the default team, on its sources page; returns its id. */
export const openDefaultProject = async (page: Page) => {
  const team = await openDefaultTeam(page);
  await team.getByRole("link", { name: /^default/ }).click();
  await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);
  return page.url().split("/").at(-2)!;
};

/** Creates a project of its own in the default team from the projects page; returns its id (on its sources page). */
export const createProject = async (page: Page, name: string) => {
  const team = await openDefaultTeam(page);
  await team.getByLabel("Project name").fill(name);
  await team.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);
  return page.url().split("/").at(-2)!;
};

/** The default team's id, through the API (setup only); the page must be on the app. */
export const defaultTeamId = async (page: Page) => {
  const me = await trpc<{ teams: { id: string; name: string }[] }>(page, "dashboard.account.me", undefined, "query");
  return me.teams.find((t) => t.name === "Default team")!.id;
};

/** Creates a project of its own in the default team through the API (setup only); returns its id. */
export const createProjectByApi = async (page: Page, name: string) => {
  const teamId = await defaultTeamId(page);
  return (await trpc<{ id: string }>(page, "dashboard.projects.create", { teamId, name })).id;
};

export type SourceFile = { name: string; text: string | Buffer; mimeType?: string };

/** On a project's sources page: uploads text files and waits until every one is built (Completed). */
export const uploadSources = async (page: Page, files: SourceFile[], timeout = 90_000) => {
  await page
    .getByLabel("Files", { exact: true })
    .setInputFiles(
      files.map((f) => ({ name: f.name, mimeType: f.mimeType ?? "text/markdown", buffer: Buffer.from(f.text) })),
    );
  const table = page.getByRole("table", { name: "Sources" });
  for (const { name } of files) {
    const row = table.getByRole("row", { name: new RegExp(name.replaceAll(".", "\\.")) });
    await expect(row.getByText("Completed", { exact: true })).toBeVisible({ timeout });
  }
};

/** The ids of a project's sources, through the API (setup only). */
export const sourceIds = async (page: Page, projectId: string) =>
  (await trpc<{ items: { id: string }[] }>(page, "dashboard.sources.list", { projectId }, "query")).items.map(
    (s) => s.id,
  );
