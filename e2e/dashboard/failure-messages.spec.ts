import { expect, test, type Browser, type Page } from "@playwright/test";
import { createInvitation, newGuestPage } from "../helpers/dashboard";
import { openDefaultProject } from "../helpers/project";

/**
 * Failed builds in the user's words (issue 30, item 3): a web address whose host does not resolve and a file that
 * is not what its name says fail everywhere, whatever is installed. Everyone reads a sentence that says what happened
 * and what to do; only admins (here the owner) get the server's own reason, behind "Details". At a laptop's and a
 * phone's size.
 */

const TOKEN = process.env.E2E_API_TOKEN;
/** What the operator's reason says and a user should never read. */
const OPERATOR_TEXT = /ENOTFOUND|EAI_AGAIN|Could not fetch|apt-get/;

const ingest = async (page: Page, width: number) => {
  // Names of this run's own: the default project keeps what earlier runs uploaded.
  const stamp = `${width}-${Date.now()}`;
  const host = `quarry-missing-${stamp}.invalid`;
  const pdf = `broken-${stamp}.pdf`;
  const url = await page.request.post("/api/public/v1/sources/ingest-url", {
    headers: { Authorization: `Bearer ${TOKEN}` },
    data: { url: `http://${host}/` },
  });
  expect(url.status()).toBe(200);
  const file = await page.request.post("/api/public/v1/sources/ingest-file", {
    headers: { Authorization: `Bearer ${TOKEN}` },
    multipart: {
      file: { name: pdf, mimeType: "application/pdf", buffer: Buffer.from("this is not a PDF") },
    },
  });
  expect(file.status()).toBe(200);
  return { host, pdf };
};

/** A new viewer of the default team, signed in in a browser of their own. */
const signUpViewer = async (
  owner: Page,
  browser: Browser,
  email: string,
  viewport: { width: number; height: number },
) => {
  const link = await createInvitation(owner, "viewer");
  const viewer = await newGuestPage(browser, viewport);
  await viewer.goto(link);
  const signUp = viewer.getByRole("form", { name: "Create your account" });
  await signUp.getByLabel("Name").fill("Vic Viewer");
  await signUp.getByLabel("Email").fill(email);
  await signUp.getByLabel("Password").fill("viewer-password-1");
  await signUp.getByRole("button", { name: "Create account and join" }).click();
  await expect(viewer.getByRole("region", { name: "Team Default team" }).getByText("Your role: viewer")).toBeVisible();
  return viewer;
};

const HOST_SENTENCE = "The web address could not be reached: no site by that name was found.";
const FILE_SENTENCE = "The file could not be read: it may be damaged, or not really the type its name says.";

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("failed sources say what happened; only an admin sees the server's reason", async ({ page, browser }) => {
      test.setTimeout(180_000);
      const { host, pdf } = await ingest(page, viewport.width);

      // The owner (an admin): the sentence, and the stored reason behind Details.
      await openDefaultProject(page);
      const table = page.getByRole("table", { name: "Sources" });
      const urlRow = table.getByRole("row", { name: new RegExp(host.replace(/\./g, "\\.")) });
      await expect(urlRow.getByText(HOST_SENTENCE)).toBeVisible({ timeout: 90_000 });
      await expect(urlRow.getByText(OPERATOR_TEXT)).toBeHidden();
      await urlRow.getByText("Details", { exact: true }).click();
      await expect(urlRow.getByText(/Could not fetch|Nothing could be read/)).toBeVisible();
      const pdfRow = table.getByRole("row", { name: new RegExp(pdf.replace(/\./g, "\\.")) });
      await expect(pdfRow.getByText(FILE_SENTENCE)).toBeVisible({ timeout: 90_000 });

      // A viewer: the same sentences, no Details, and no operator text anywhere on the table or the source page.
      const viewer = await signUpViewer(page, browser, `viewer-${viewport.width}-${Date.now()}@e2e.test`, viewport);
      await openDefaultProject(viewer);
      const seen = viewer.getByRole("table", { name: "Sources" });
      const seenRow = seen.getByRole("row", { name: new RegExp(host.replace(/\./g, "\\.")) });
      await expect(seenRow.getByText(HOST_SENTENCE)).toBeVisible();
      await expect(seenRow.getByText("Details", { exact: true })).toHaveCount(0);
      await expect(seen).not.toContainText(OPERATOR_TEXT);
      await seen.getByRole("link", { name: pdf }).click();
      const history = viewer.getByRole("region", { name: "Build history" });
      await expect(history.getByText(FILE_SENTENCE)).toBeVisible();
      await expect(history.getByText("Details", { exact: true })).toHaveCount(0);
      await expect(viewer.locator("body")).not.toContainText(OPERATOR_TEXT);
      // The web source's page, with what its fetch found, in the same words.
      await viewer.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Sources" }).click();
      await viewer
        .getByRole("table", { name: "Sources" })
        .getByRole("link", { name: new RegExp(host.replace(/\./g, "\\.")) })
        .click();
      await expect(viewer.getByRole("region", { name: "Build history" }).getByText(HOST_SENTENCE)).toBeVisible();
      await expect(viewer.locator("body")).not.toContainText(OPERATOR_TEXT);
      await viewer.context().close();
    });
  });
}
