import { expect, test, type Page } from "@playwright/test";

/**
 * An admin deletes a project from its Settings page, at a laptop's and a phone's size: the button stays disabled
 * until the project's name is typed exactly, then a progress view follows the job until the project is gone, and it
 * is no longer listed.
 */

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

const noHorizontalOverflow = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

for (const size of SIZES) {
  test(`an admin deletes a project after typing its name (${size.width}×${size.height})`, async ({ page }) => {
    test.setTimeout(90_000);
    const name = `doomed-${size.width}-${Date.now()}`;
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.setViewportSize(size);
    await page.goto("/");
    const team = page.getByRole("region", { name: "Team Default team" });
    await team.getByLabel("Project name").fill(name);
    await team.getByRole("button", { name: "Create project" }).click();
    await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);
    const projectId = new URL(page.url()).pathname.split("/")[1]!;

    await page.goto(`/${projectId}/settings/general`);
    const zone = page.getByRole("region", { name: "Danger zone" });
    await expect(zone.getByRole("heading", { name: "Delete project" })).toBeVisible();
    await noHorizontalOverflow(page);
    const confirm = zone.getByLabel(`Type ${name} to confirm`);
    const button = zone.getByRole("button", { name: "Delete project" });
    await expect(button).toBeDisabled();
    await confirm.fill(name.toUpperCase());
    await expect(button).toBeDisabled();
    await confirm.fill(name);
    await button.click();

    await expect(zone.getByRole("progressbar", { name: "Deletion progress" })).toBeVisible();
    await expect(zone.getByText("The project was deleted.")).toBeVisible({ timeout: 60_000 });
    await noHorizontalOverflow(page);
    await zone.getByRole("link", { name: "Back to your projects" }).click();
    await expect(team).toBeVisible();
    await expect(team.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveCount(0);
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
  });
}
