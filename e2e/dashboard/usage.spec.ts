import { expect, test } from "@playwright/test";
import { watchProblems } from "../helpers/layout";
import { openDefaultProject } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES, openProjectLink } from "../helpers/screen";

/**
 * The usage page of a project. The browser suite's app runs without a remote model (the install's default), so
 * the page is empty here and the rows' figures are checked through the procedures (server/usage/usage.int.test.ts);
 * this spec checks what a person does on the page: finds it, reads the period, and, as an admin, prices a model. At a
 * laptop's and a phone's size, every screen on the way fits the window, has no console error or failed request, and
 * no serious axe violation.
 */

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("an admin opens usage, sees no model calls yet, and sets and removes a price per million tokens", async ({
      page,
    }) => {
      // Axe on every screen takes seconds each on a loaded machine.
      test.setTimeout(120_000);
      // Each size prices a model of its own, so neither run sees the other's.
      const model = `gpt-4o-mini-${viewport.width}`;
      const problems = watchProblems(page);
      await openDefaultProject(page);
      await openProjectLink(page, "Usage");
      await expect(page).toHaveURL(/\/usage$/);
      await expect(page.getByRole("heading", { name: "Usage", level: 1 })).toBeVisible();

      const totals = page.getByRole("definition").first();
      await expect(page.getByLabel("Totals")).toContainText("Calls");
      await expect(totals).toHaveText("0");
      await expect(page.getByText("No model calls in this period")).toBeVisible();
      await checkScreen(page, problems, "usage");
      await page.getByLabel("Period").selectOption("7");
      await expect(page.getByText("No model calls in this period")).toBeVisible();

      const form = page.getByRole("form", { name: "Set a price" });
      await form.getByLabel("Model").fill(model);
      await form.getByLabel("Input / 1M tokens").fill("-1");
      await form.getByLabel("Output / 1M tokens").fill("0.6");
      await form.getByRole("button", { name: "Save price" }).click();
      await expect(form.getByText("A price is 0 or more")).toBeVisible();
      await checkScreen(page, problems, "usage with a refused price");

      await form.getByLabel("Input / 1M tokens").fill("0.15");
      await form.getByRole("button", { name: "Save price" }).click();
      const prices = page.getByRole("list", { name: "Model prices" });
      await expect(prices).toContainText(model);
      await expect(prices).toContainText("0.15 in / 0.6 out");

      await page.reload();
      await expect(page.getByRole("list", { name: "Model prices" })).toContainText(model);
      await checkScreen(page, problems, "usage with a price");
      await page.getByRole("button", { name: `Remove the price of ${model}` }).click();
      await expect(page.getByRole("list", { name: "Model prices" })).toHaveCount(0);
      expect(problems).toEqual([]);
    });
  });
}
