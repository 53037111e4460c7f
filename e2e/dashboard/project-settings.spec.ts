import { expect, test } from "@playwright/test";
import { watchProblems } from "../helpers/layout";
import { createProject, openDefaultTeam } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES, openMenu, openProjectLink } from "../helpers/screen";

/**
 * An admin renames a project from its Settings page; the header follows, and a name the team uses is refused. At a
 * laptop's and a phone's size, every screen on the way fits the window, has no console error or failed request, and
 * no serious axe violation.
 */
for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("an admin renames a project, and a taken name is refused", async ({ page }) => {
      // Axe on every screen takes seconds each on a loaded machine.
      test.setTimeout(120_000);
      const stamp = `${viewport.width}-${Date.now()}`;
      // The refused renames answer 4xx on purpose.
      const problems = watchProblems(page, (url, status) => status < 500 && url.includes("dashboard.projects.rename"));
      await createProject(page, `taken-${stamp}`);
      await createProject(page, `draft-${stamp}`);

      await openProjectLink(page, "Settings");
      await expect(page.getByRole("heading", { name: "Project settings", level: 1 })).toBeVisible();
      const form = page.getByRole("form", { name: "Rename project" });
      await expect(form.getByLabel("Project name")).toHaveValue(`draft-${stamp}`);
      await checkScreen(page, problems, "project settings");

      await form.getByLabel("Project name").fill(`taken-${stamp}`);
      await form.getByRole("button", { name: "Rename" }).click();
      await expect(form.getByText(`This team already has a project named 'taken-${stamp}'`)).toBeVisible();

      await form.getByLabel("Project name").fill("-no");
      await form.getByRole("button", { name: "Rename" }).click();
      await expect(form.getByText("starting with a letter or digit")).toBeVisible();
      await checkScreen(page, problems, "project settings with a refused name");

      await form.getByLabel("Project name").fill(`Field notes ${stamp}`);
      await form.getByRole("button", { name: "Rename" }).click();
      await expect(form.getByRole("status")).toHaveText(`Renamed to Field notes ${stamp}.`);
      await openMenu(page);
      await expect(page.getByRole("navigation", { name: "Project" })).toContainText(`Field notes ${stamp}`);
      await checkScreen(page, problems, "project settings after a rename");
      const team = await openDefaultTeam(page);
      await expect(team.getByRole("link", { name: new RegExp(`^Field notes ${stamp}`) })).toBeVisible();
      await checkScreen(page, problems, "projects after a rename");
    });
  });
}
