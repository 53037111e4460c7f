import { expect, test, type Browser, type Page } from "@playwright/test";
import { OWNER_STATE } from "../../playwright.config";
import { trpc } from "../helpers/dashboard";
import { createFlow, searchFlowGraph } from "../helpers/flow";
import {
  attachScreenshot,
  cutSelects,
  expectFitsWindow,
  hiddenTabs,
  VIEWPORTS,
  watchProblems,
} from "../helpers/layout";
import { createProject, defaultTeamId } from "../helpers/project";

/**
 * Issue 30's layout from a phone to a laptop: every dashboard screen at 360, 390 and 1440 px, over a project whose
 * sources have long names and whose failed builds carry long reasons. Nothing may poke out on the right (tables scroll
 * inside their card), no select may cut its label, no console error and no failed request; each screen's
 * screenshot goes to the test report.
 */

const LONG = "quarterly-geotechnical-survey-of-the-northern-granite-benches-with-appendices-and-core-logs";
const NOTES = "# Granite benches\n\nGranite blocks are cut from the quarry face with diamond wire saws.\n";

type Seed = { projectId: string; teamId: string; completedId: string; failedId: string; flow: string };

/** A project of its own: a built source and failed ones (a damaged PDF, an unreachable address), all with long names. */
const seed = async (browser: Browser): Promise<Seed> => {
  const context = await browser.newContext({ storageState: OWNER_STATE, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const projectId = await createProject(page, `responsive-${Date.now()}`);
  await page.getByLabel("Files", { exact: true }).setInputFiles([
    { name: `${LONG}.md`, mimeType: "text/markdown", buffer: Buffer.from(NOTES) },
    { name: `${LONG}-scanned.pdf`, mimeType: "application/pdf", buffer: Buffer.from("this is not a PDF at all") },
  ]);
  await trpc(page, "dashboard.connectors.addUrl", {
    projectId,
    url: `http://${LONG}.invalid/reports/2026/the-full-annual-report-with-every-appendix.html`,
  });
  const table = page.getByRole("table", { name: "Sources" });
  const row = (name: string) => table.getByRole("row", { name: new RegExp(name.replaceAll(".", "\\.")) });
  await expect(row(`${LONG}.md`).getByText("Completed", { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(row(`${LONG}-scanned.pdf`).getByText("Failed", { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(row(`${LONG}.invalid`).getByText("Failed", { exact: true })).toBeVisible({ timeout: 120_000 });
  const idOf = async (name: string) =>
    (await row(name).getByRole("link").first().getAttribute("href"))!.split("/").at(-1)!;
  const completedId = await idOf(`${LONG}.md`);
  const failedId = await idOf(`${LONG}-scanned.pdf`);
  const flow = "survey-answers";
  const graph = searchFlowGraph({
    fileIds: [completedId],
    datasetName: "Survey documents of the northern benches",
    retrievalName: "Hybrid search",
  });
  await createFlow(page, { projectId, name: flow }, graph);
  const teamId = await defaultTeamId(page);
  await context.close();
  return { projectId, teamId, completedId, failedId, flow };
};

type Screen = { name: string; path: (s: Seed) => string; then?: (page: Page) => Promise<void> };

const SCREENS: Screen[] = [
  { name: "project list", path: () => "/" },
  {
    name: "sources",
    path: (s) => `/${s.projectId}/sources`,
    then: async (page) => {
      // A failed build's sentence keeps a readable width in a phone's narrow table, instead of a word a line.
      const rows = page.getByRole("table", { name: "Sources" }).locator("tbody tr");
      await expect(rows).toHaveCount(3);
      for (const box of await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height)))
        expect(box, "a sources row's height").toBeLessThan(200);
    },
  },
  {
    name: "failed source",
    path: (s) => `/${s.projectId}/sources/${s.failedId}`,
    then: async (page) => {
      // Nothing was built, so there is nothing to filter: the page says why instead of offering an empty filter.
      await expect(page.getByText("Processing failed", { exact: true }).first()).toBeVisible();
      await expect(page.getByLabel("Element type")).toHaveCount(0);
    },
  },
  { name: "built source", path: (s) => `/${s.projectId}/sources/${s.completedId}` },
  {
    name: "reprocess dialog",
    path: (s) => `/${s.projectId}/sources/${s.failedId}`,
    then: async (page) => {
      await page.getByRole("button", { name: /^Reprocess / }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  { name: "search", path: (s) => `/${s.projectId}/search` },
  { name: "chat", path: (s) => `/${s.projectId}/chat` },
  { name: "flows list", path: (s) => `/${s.projectId}/flows` },
  {
    name: "flow editor",
    path: (s) => `/${s.projectId}/flows/${s.flow}`,
    then: async (page) => {
      await expect(page.locator(".react-flow__node")).toHaveCount(3);
      await page.locator('.react-flow__node[data-id^="dataset-"]').click();
      // The minimap is drawn inside its corner of the canvas, not cut by the canvas's edge.
      const canvas = (await page.locator(".react-flow").boundingBox())!;
      const map = (await page.locator(".react-flow__minimap svg").boundingBox())!;
      expect(map.x + map.width).toBeLessThanOrEqual(canvas.x + canvas.width);
      expect(map.y + map.height).toBeLessThanOrEqual(canvas.y + canvas.height);
    },
  },
  {
    name: "evaluation",
    path: (s) => `/${s.projectId}/flows/${s.flow}`,
    then: async (page) => {
      await page.getByRole("region", { name: "Flow panel" }).getByRole("tab", { name: "Evaluate" }).click();
    },
  },
  {
    name: "revisions",
    path: (s) => `/${s.projectId}/flows/${s.flow}`,
    then: async (page) => {
      await page.getByRole("region", { name: "Flow panel" }).getByRole("tab", { name: "Revisions" }).click();
    },
  },
  { name: "tokens", path: (s) => `/${s.projectId}/settings/api-tokens` },
  { name: "members", path: (s) => `/teams/${s.teamId}` },
  { name: "webhooks", path: (s) => `/${s.projectId}/settings/webhooks` },
  { name: "models", path: (s) => `/${s.projectId}/settings/models` },
  { name: "providers", path: (s) => `/teams/${s.teamId}/providers` },
  { name: "usage", path: (s) => `/${s.projectId}/usage` },
  { name: "settings", path: (s) => `/${s.projectId}/settings/general` },
  { name: "account", path: () => "/account" },
  { name: "API reference", path: (s) => `/${s.projectId}/api-reference` },
];

/** The page has its heading and nothing is still loading. */
const settled = async (page: Page) => {
  // The page's own heading comes first (the API reference's widget has an h1 of its own).
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(page.locator('p[role="status"]:has(.animate-spin)')).toHaveCount(0, { timeout: 20_000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 250))));
};

let data: Seed;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  data = await seed(browser);
});

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("every dashboard screen fits the window, without errors or failed requests", async ({ page }, testInfo) => {
      test.setTimeout(300_000);
      const problems = watchProblems(page);
      for (const screen of SCREENS) {
        await test.step(screen.name, async () => {
          await page.goto(screen.path(data));
          await settled(page);
          await screen.then?.(page);
          await settled(page);
          await attachScreenshot(page, testInfo, `${viewport.width}px ${screen.name}`);
          await expectFitsWindow(page, screen.name);
          expect(await cutSelects(page), `${screen.name}: selects whose label is cut`).toEqual([]);
          expect(await hiddenTabs(page), `${screen.name}: tabs out of sight`).toEqual([]);
          expect(problems, `${screen.name}: console errors and failed requests`).toEqual([]);
        });
      }
    });
  });
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the header folds into a menu that opens, closes with Escape and returns focus", async ({ page }) => {
    const problems = watchProblems(page);
    await page.goto(`/${data.projectId}/sources`);
    await settled(page);
    // Sign out and the project's screens are behind the menu, not off screen.
    await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Project" })).toBeHidden();
    const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    // Focus moves into the panel, whose every control is inside the window.
    await expect(page.getByRole("combobox", { name: "Project" })).toBeFocused();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeInViewport();
    await expectFitsWindow(page, "open menu");
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
    // A link in the menu navigates and closes it.
    await menu.click();
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Flows" }).click();
    await expect(page).toHaveURL(new RegExp(`/${data.projectId}/flows$`));
    await expect(page.getByRole("heading", { level: 1, name: "Flows" })).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    expect(problems).toEqual([]);
  });

  test("the flow canvas is read-only and legible, and says editing needs a wider screen", async ({ page }) => {
    const problems = watchProblems(page);
    await page.goto(`/${data.projectId}/flows/${data.flow}`);
    await settled(page);
    await expect(page.getByText("Editing needs a wider screen")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Node palette" })).toHaveCount(0);
    // The header offers no tool that would change the graph; fitting the view and deploying stay.
    for (const tool of ["Undo", "Redo", "Auto-layout", "Lay out top to bottom"])
      await expect(page.getByRole("button", { name: tool, exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Fit view", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Deploy", exact: true })).toBeVisible();
    const node = page.locator('.react-flow__node[data-id^="dataset-"]');
    await expect(node).toBeVisible();
    // Fitted at a zoom where the node's text reads (not the 0.45× a whole-flow fit would give).
    const transform = await page.locator(".react-flow__viewport").evaluate((el) => (el as HTMLElement).style.transform);
    expect(Number(/scale\(([\d.]+)\)/.exec(transform)![1])).toBeGreaterThanOrEqual(0.8);
    // A drag moves the view, never the node.
    const before = await node.evaluate((el) => (el as HTMLElement).style.transform);
    const box = (await node.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + 60, { steps: 5 });
    await page.mouse.up();
    expect(await node.evaluate((el) => (el as HTMLElement).style.transform)).toBe(before);
    await expect(page.locator(".react-flow__node.draggable")).toHaveCount(0);
    await expect(page.locator(".react-flow__handle.connectable")).toHaveCount(0);
    // The selected node's settings are shown, not editable.
    await node.click();
    await expect(page.getByRole("region", { name: "Flow panel" }).getByLabel("Node name")).toBeDisabled();
    await expectFitsWindow(page, "flow editor");
    expect(problems).toEqual([]);
  });
});
