import { expect, test } from "@playwright/test";

/** An admin renames a project from its Settings page; the header follows, and a name the team uses is refused. */
test("an admin renames a project, and a taken name is refused", async ({ page }) => {
  const stamp = Date.now();
  await page.goto("/");
  const team = page.getByRole("region", { name: "Team Default team" });
  await team.getByLabel("Project name").fill(`taken-${stamp}`);
  await team.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);
  await page.goto("/");
  await team.getByLabel("Project name").fill(`draft-${stamp}`);
  await team.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);

  const nav = page.getByRole("navigation", { name: "Project" });
  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Project settings", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Rename project" });
  await expect(form.getByLabel("Project name")).toHaveValue(`draft-${stamp}`);

  await form.getByLabel("Project name").fill(`taken-${stamp}`);
  await form.getByRole("button", { name: "Rename" }).click();
  await expect(form.getByText(`This team already has a project named 'taken-${stamp}'`)).toBeVisible();

  await form.getByLabel("Project name").fill("-no");
  await form.getByRole("button", { name: "Rename" }).click();
  await expect(form.getByText("starting with a letter or digit")).toBeVisible();

  await form.getByLabel("Project name").fill(`Field notes ${stamp}`);
  await form.getByRole("button", { name: "Rename" }).click();
  await expect(form.getByRole("status")).toHaveText(`Renamed to Field notes ${stamp}.`);
  await expect(nav).toContainText(`Field notes ${stamp}`);
  await page.goto("/");
  await expect(team.getByRole("link", { name: new RegExp(`^Field notes ${stamp}`) })).toBeVisible();
});
