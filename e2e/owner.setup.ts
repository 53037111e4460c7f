import { expect, test as setup } from "@playwright/test";
import { OWNER_STATE } from "../playwright.config";
import { checkA11y } from "./helpers/axe";

const email = process.env.E2E_OWNER_EMAIL!;
const password = process.env.E2E_OWNER_PASSWORD!;

/**
 * A fresh install's first visit offers to create the owner; that account owns the default team and the project the
 * first start made. Against an existing deployment (E2E_BASE_URL) the owner signs in instead.
 */
setup("the first visit creates the owner account", async ({ page }) => {
  // Creating the account and the first render of the projects page can take a while on busy shared cores.
  setup.setTimeout(120_000);
  await page.goto("/");
  await expect(page).toHaveURL(/\/(setup|sign-in)/);
  if (page.url().endsWith("/setup")) {
    const form = page.getByRole("form", { name: "Create the owner account" });
    // Its one visit, so its accessibility check is here (e2e/dashboard/accessibility.spec.ts has the other pages).
    await checkA11y(page, "Setup");
    // The server's rules, checked in the browser before anything is sent.
    await form.getByRole("button", { name: "Create owner account" }).click();
    await expect(form.getByText("Enter your name")).toBeVisible();
    await form.getByLabel("Name").fill("Olga Owner");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(password);
    await form.getByRole("button", { name: "Create owner account" }).click();
  } else {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible({ timeout: 30_000 });
  const team = page.getByRole("region", { name: "Team Default team" });
  await expect(team.getByText("Your role: owner")).toBeVisible({ timeout: 30_000 });
  // The project made by the headless first start (QUARRY_INIT_TOKEN) was not orphaned.
  await expect(team.getByRole("link", { name: /^default/ })).toBeVisible();
  // Once an owner exists, the setup page is gone.
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/sign-in|\/$/);
  await page.context().storageState({ path: OWNER_STATE });
});
