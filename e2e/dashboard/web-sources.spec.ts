import { expect, test, type Page } from "@playwright/test";

/**
 * Adding sources from the web in the dashboard: a crawl of the local stand-in site (started beside the app by
 * playwright.config.ts) whose page list shows every URL's fate, and a repository from the GitHub stand-in.
 */

const STANDIN_PORT = Number(process.env.E2E_PORT ?? 3107) + 1000;
const SITE = `http://127.0.0.1:${STANDIN_PORT}`;

test.skip(!!process.env.E2E_BASE_URL, "the connector stand-ins run only beside a locally started app");

/** The default project's sources page, with the form of one connector's tab. */
const openSources = async (page: Page, tab: "Web page" | "GitHub repository" | "YouTube video") => {
  await page.goto("/");
  await page.getByRole("list", { name: "Projects of Default team" }).getByRole("link", { name: "default" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sources" })).toBeVisible();
  await page.getByRole("tab", { name: tab }).click();
  return page.getByRole("form", { name: `Add a ${tab}` });
};

// Each test fetches, parses and embeds several pages: on a busy machine that outlasts the default 30 s.
test.describe.configure({ timeout: 180_000 });

test("crawls a site from the dashboard and shows each page's fate", async ({ page }) => {
  const form = await openSources(page, "Web page");
  await form.getByLabel("URL", { exact: true }).fill(`${SITE}/docs/`);
  await form.getByLabel("Follow links (crawl the same site and folder)").check();
  await form.getByRole("button", { name: "Add", exact: true }).click();
  await expect(form.getByRole("status")).toHaveText(`Added ${SITE}/docs/; fetching and processing have started.`);

  const row = page.getByRole("table", { name: "Sources" }).getByRole("row", { name: new RegExp(`${SITE}/docs/`) });
  await expect(row.getByText("Completed", { exact: true })).toBeVisible({ timeout: 90_000 });
  await row.getByRole("link", { name: `${SITE}/docs/` }).click();

  const pages = page.getByRole("table", { name: "Crawled pages" });
  await expect(pages).toBeVisible();
  const fate = (path: string) => pages.getByRole("row", { name: new RegExp(`^${SITE}${path} `) });
  await expect(fate("/docs/guide.html")).toContainText("ingested");
  await expect(fate("/docs/challenge.html")).toContainText("bot-challenge page (Cloudflare)");
  await expect(fate("/docs/app.html")).toContainText("JavaScript-only page");
  await expect(fate("/docs/private/notes.html")).toContainText("disallowed by robots.txt");
  await expect(page.getByText(/\d+ considered · \d+ fetched · 7 ingested · \d+ skipped/)).toBeVisible();
  // The linked PDF is one of the pages of the source.
  await expect(page.getByRole("list", { name: "Elements" })).toBeVisible();
});

test("adds a GitHub repository", async ({ page }) => {
  const form = await openSources(page, "GitHub repository");
  await form.getByLabel("URL", { exact: true }).fill("https://github.com/quarry-co/handbook");
  await form.getByRole("button", { name: "Add", exact: true }).click();
  const row = page
    .getByRole("table", { name: "Sources" })
    .getByRole("row", { name: /github\.com\/quarry-co\/handbook/ });
  await expect(row.getByText("Completed", { exact: true })).toBeVisible({ timeout: 90_000 });
  await row.getByRole("link").first().click();
  await expect(page.getByText("quarry-co/handbook", { exact: true })).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Elements" }).getByText("Quarry handbook", { exact: true }),
  ).toBeVisible();
});
