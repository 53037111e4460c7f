import { expect, test, type Page } from "@playwright/test";

/**
 * The usage page of a project. The browser suite's app runs without a remote model (the install's default), so
 * the page is empty here and the rows' figures are checked through the procedures (server/usage/usage.int.test.ts);
 * this spec checks what a person does on the page: finds it, reads the period, and, as an admin, prices a model.
 */

const openDefaultProject = async (page: Page) => {
  await page.goto("/");
  await page
    .getByRole("region", { name: "Team Default team" })
    .getByRole("link", { name: /^default/ })
    .click();
  await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);
};

test("an admin opens usage, sees no model calls yet, and sets and removes a price per million tokens", async ({
  page,
}) => {
  await openDefaultProject(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/usage$/);
  await expect(page.getByRole("heading", { name: "Usage", level: 1 })).toBeVisible();

  const totals = page.getByRole("definition").first();
  await expect(page.getByLabel("Totals")).toContainText("Calls");
  await expect(totals).toHaveText("0");
  await expect(page.getByText("No model calls in this period")).toBeVisible();
  await page.getByLabel("Period").selectOption("7");
  await expect(page.getByText("No model calls in this period")).toBeVisible();

  const form = page.getByRole("form", { name: "Set a price" });
  await form.getByLabel("Model").fill("gpt-4o-mini");
  await form.getByLabel("Input / 1M tokens").fill("-1");
  await form.getByLabel("Output / 1M tokens").fill("0.6");
  await form.getByRole("button", { name: "Save price" }).click();
  await expect(form.getByText("A price is 0 or more")).toBeVisible();

  await form.getByLabel("Input / 1M tokens").fill("0.15");
  await form.getByRole("button", { name: "Save price" }).click();
  const prices = page.getByRole("list", { name: "Model prices" });
  await expect(prices).toContainText("gpt-4o-mini");
  await expect(prices).toContainText("0.15 in / 0.6 out");

  await page.reload();
  await expect(page.getByRole("list", { name: "Model prices" })).toContainText("gpt-4o-mini");
  await page.getByRole("button", { name: "Remove the price of gpt-4o-mini" }).click();
  await expect(page.getByRole("list", { name: "Model prices" })).toHaveCount(0);
});
