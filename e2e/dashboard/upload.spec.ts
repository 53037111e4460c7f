import { writeFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";

const TITLE = "Field Guide to Quarry";
const PARAGRAPHS = 30;

/** More paragraphs than one page of elements (20), so paging is exercised too. */
const markdownDocument = () =>
  [
    `# ${TITLE}`,
    ...Array.from(
      { length: PARAGRAPHS },
      (_, i) =>
        `Paragraph ${i + 1}. Quarry splits every uploaded document into elements, chunks them, embeds the chunks ` +
        `and indexes them for retrieval.`,
    ),
  ].join("\n\n") + "\n";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** From the home page to the sources of the project; a fresh data dir has exactly one, which the home page opens. */
const openSources = async (page: Page) => {
  await page.goto("/");
  const sourcesHeading = page.getByRole("heading", { level: 1, name: "Sources" });
  const projectList = page.getByRole("list", { name: "Projects" });
  await expect(sourcesHeading.or(projectList)).toBeVisible();
  // Against an existing deployment (E2E_BASE_URL) there may be several projects: take the first.
  if (await projectList.isVisible()) await projectList.getByRole("link").first().click();
  await expect(sourcesHeading).toBeVisible();
  await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);
};

test("uploads a document, waits for processing and pages through its elements", async ({ page }, testInfo) => {
  const fileName = `field-guide-${Date.now()}.md`;
  const filePath = testInfo.outputPath(fileName);
  await writeFile(filePath, markdownDocument());

  await openSources(page);
  const form = page.getByRole("form", { name: "Upload a source" });
  await form.getByLabel("File", { exact: true }).setInputFiles(filePath);
  await form.getByLabel("Method", { exact: true }).selectOption("fast");
  await form.getByRole("button", { name: "Upload", exact: true }).click();

  await expect(form.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await expect(form.getByRole("status")).toHaveText(`Uploaded ${fileName}; processing has started.`);

  const sources = page.getByRole("table", { name: "Sources" });
  const row = sources.getByRole("row", { name: new RegExp(escapeRegExp(fileName)) });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell", { name: /^md$/i })).toBeVisible();
  // The list polls while the build runs; the badge turns to Completed without a reload.
  await expect(row.getByText("Completed", { exact: true })).toBeVisible({ timeout: 60_000 });

  await row.getByRole("link", { name: fileName }).click();
  await expect(page.getByRole("heading", { level: 1, name: fileName })).toBeVisible();
  const elements = page.getByRole("list", { name: "Elements" });
  await expect(elements.getByText(TITLE, { exact: true })).toBeVisible();

  const summary = await page.getByText(/^\d+ elements?$/).textContent();
  const total = Number(summary?.match(/\d+/)?.[0]);
  expect(total).toBeGreaterThan(0);
  await expect(elements.getByRole("listitem")).toHaveCount(Math.min(total, 20));

  const pager = page.getByRole("navigation", { name: "Element pages" });
  if (total > 20) {
    const pages = Math.ceil(total / 20);
    await expect(pager.getByText(`Page 1 of ${pages}`)).toBeVisible();
    await expect(pager.getByRole("button", { name: "Previous" })).toBeDisabled();
    await pager.getByRole("button", { name: "Next" }).click();
    await expect(pager.getByText(`Page 2 of ${pages}`)).toBeVisible();
    await expect(elements.getByText(TITLE, { exact: true })).toBeHidden();
    await expect(elements.getByText(`Paragraph ${PARAGRAPHS}.`, { exact: false })).toBeVisible();
    await expect(pager.getByRole("button", { name: "Previous" })).toBeEnabled();
  } else {
    await expect(pager).toBeHidden();
  }
});

test("shows the server's error for an unsupported file type", async ({ page }, testInfo) => {
  const filePath = testInfo.outputPath("notes.xyz");
  await writeFile(filePath, "Not a format Quarry reads.\n");

  await openSources(page);
  const form = page.getByRole("form", { name: "Upload a source" });
  await form.getByLabel("File", { exact: true }).setInputFiles(filePath);
  await form.getByRole("button", { name: "Upload", exact: true }).click();

  await expect(form.getByRole("alert")).toHaveText("Unsupported file type: .xyz");
  await expect(page.getByRole("row", { name: /notes\.xyz/ })).toHaveCount(0);
});
