import { expect, test } from "@playwright/test";

/**
 * `?next=` after sign-in is followed only to a path of this app. `/%09/evil.test` reaches the page as `/<TAB>/evil.test`,
 * which a browser, dropping the tab, reads as `//evil.test`: another host. Both ways in are checked in a real browser:
 * the sign-in form (client-side navigation) and the server's redirect of someone already signed in.
 */

const EVIL = "/sign-in?next=/%09/evil.test";

test("the sign-in form does not follow next= to another host", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto(EVIL);
  await page.getByLabel("Email").fill(process.env.E2E_OWNER_EMAIL!);
  await page.getByLabel("Password").fill(process.env.E2E_OWNER_PASSWORD!);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  await context.close();
});

test("a signed-in visit is redirected to this app, not to next='s host", async ({ page, baseURL }) => {
  await page.goto(EVIL);
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});
