import { writeFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { pdfDoc } from "../../server/testing/fixtures";
import { trpc } from "../helpers/dashboard";
import { followCitation } from "../helpers/chat";
import { watchProblems } from "../helpers/layout";
import { createProject } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES, openProjectLink } from "../helpers/screen";

/**
 * The journeys issue 30 found broken, at a laptop's size: conversations that survive citations and Back, pickers
 * that offer built sources only, a type filter over the whole source, search with a threshold, test cases written
 * in the UI, and feedback that confirms and then goes away. At a laptop's and a phone's size, every screen on the way
 * fits the window, has no console error or failed request, and no serious axe violation.
 */

const BASALT = "# Basalt\n\nBasalt columns cool into hexagons. Lava cools fast at the surface.\n";
const GRANITE = "# Granite\n\nGranite blocks are cut from the quarry face with diamond wire saws.\n";

/** A project of its own with two built sources and one whose build failed. */
const projectWithSources = async (page: Page, problems: string[], prefix: string) => {
  const projectId = await createProject(page, `${prefix}-${Date.now()}`);
  await page.getByLabel("Files", { exact: true }).setInputFiles([
    { name: "basalt.md", mimeType: "text/markdown", buffer: Buffer.from(BASALT) },
    { name: "granite.md", mimeType: "text/markdown", buffer: Buffer.from(GRANITE) },
    { name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("this is not a PDF at all") },
  ]);
  // Finished uploads fold into one line with Clear, instead of a row each above the table.
  const uploads = page.getByRole("list", { name: "Uploads" });
  await expect(uploads.getByText("3 files uploaded; processing has started.")).toBeVisible({ timeout: 30_000 });
  const table = page.getByRole("table", { name: "Sources" });
  for (const name of ["basalt.md", "granite.md"])
    await expect(table.getByRole("row", { name: new RegExp(name) }).getByText("Completed")).toBeVisible({
      timeout: 90_000,
    });
  await expect(table.getByRole("row", { name: /broken\.pdf/ }).getByText("Failed")).toBeVisible({ timeout: 90_000 });
  await uploads.getByRole("button", { name: "Clear" }).click();
  await expect(uploads).toHaveCount(0);
  await checkScreen(page, problems, "sources");
  return projectId;
};

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("conversations: listed, renamed, reopened after Back, citations in a new tab, deleted", async ({ page }) => {
      test.setTimeout(240_000);
      const problems = watchProblems(page);
      await projectWithSources(page, problems, "conversations");
      await openProjectLink(page, "Chat");

      // The picker offers built sources only: the failed PDF has nothing to answer from.
      const picker = page.getByRole("region", { name: "Sources to ask" });
      await expect(picker.getByRole("checkbox", { name: "basalt.md" })).toBeVisible();
      await expect(picker.getByRole("checkbox", { name: "broken.pdf" })).toHaveCount(0);

      await page.getByLabel("Thinking level").selectOption("fast");
      await page.getByLabel("Question", { exact: true }).fill("How do basalt columns cool?");
      await page.getByRole("button", { name: "Ask" }).click();
      const conversation = page.getByRole("list", { name: "Conversation" });
      await expect(conversation).toContainText("Basalt columns cool into hexagons.", { timeout: 30_000 });
      await checkScreen(page, problems, "chat with an answer");
      await expect(page).toHaveURL(/\/chat\?c=[0-9a-f-]{36}$/);
      const firstUrl = page.url();
      const list = page.getByRole("region", { name: "Conversations" });
      await expect(list.getByRole("button", { name: "How do basalt columns cool?", exact: true })).toBeVisible();

      // A citation opens beside the chat, which stays as it was.
      const { viewer, viewerProblems } = await followCitation(page, conversation, "basalt.md");
      await expect(viewer).toHaveURL(/\/sources\/[0-9a-f-]{36}\?/);
      await checkScreen(viewer, viewerProblems, "citation viewer");
      await viewer.close();
      await expect(conversation).toContainText("Basalt columns cool into hexagons.");

      // Rename, with a toast.
      await list.getByRole("button", { name: "Rename How do basalt columns cool?" }).click();
      await list.getByLabel("Conversation name").fill("Basalt cooling");
      await list.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("status", { name: "Notifications" })).toContainText("Conversation renamed");
      await checkScreen(page, problems, "chat after a rename");
      await expect(list.getByRole("button", { name: "Basalt cooling", exact: true })).toBeVisible();

      // Leave for another page, then Back: the same conversation, its answer loaded from the server.
      await openProjectLink(page, "Search");
      await expect(page.getByRole("heading", { level: 1, name: "Search" })).toBeVisible();
      await page.goBack();
      await expect(page).toHaveURL(firstUrl);
      await expect(conversation).toContainText("How do basalt columns cool?");
      await expect(conversation).toContainText("Basalt columns cool into hexagons.");

      // A second conversation; the first reopens from the list and continues.
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page.getByText("Ask your documents a question")).toBeVisible();
      await page.getByLabel("Question", { exact: true }).fill("How are granite blocks cut?");
      await page.getByRole("button", { name: "Ask" }).click();
      await expect(conversation).toContainText("diamond wire saws", { timeout: 30_000 });
      await expect(list.getByRole("button", { name: "How are granite blocks cut?", exact: true })).toBeVisible();
      await list.getByRole("button", { name: "Basalt cooling", exact: true }).click();
      await expect(page).toHaveURL(firstUrl);
      await expect(conversation).toContainText("How do basalt columns cool?");
      await expect(conversation).not.toContainText("diamond wire saws");
      await page.getByLabel("Follow-up question").fill("Where does lava cool fast?");
      await page.getByRole("button", { name: "Ask" }).click();
      await expect(conversation.getByRole("listitem").filter({ hasText: "Where does lava cool fast?" })).toContainText(
        "surface",
        { timeout: 30_000 },
      );

      // Delete the other one after confirming.
      await list.getByRole("button", { name: "Delete How are granite blocks cut?" }).click();
      await page
        .getByRole("dialog", { name: "Delete conversation" })
        .getByRole("button", { name: "Delete conversation" })
        .click();
      await expect(page.getByRole("status", { name: "Notifications" })).toContainText("Conversation deleted");
      await checkScreen(page, problems, "chat after a delete");
      await expect(list.getByRole("button", { name: "How are granite blocks cut?", exact: true })).toHaveCount(0);
      await expect(list.getByRole("button", { name: "Basalt cooling", exact: true })).toBeVisible();
      expect(problems).toEqual([]);
    });

    test("search with a threshold, Top K and a source; the type filter spans every page", async ({
      page,
    }, testInfo) => {
      test.setTimeout(240_000);
      const problems = watchProblems(page);
      const projectId = await projectWithSources(page, problems, "search");

      await page.goto(`/${projectId}/search`);
      const form = page.getByRole("search", { name: "Search the project" });
      // The source filter offers built sources only.
      await expect(form.getByLabel("Source").locator("option")).toHaveText(["All sources", "basalt.md", "granite.md"]);
      await form.getByLabel("Search", { exact: true }).fill("qwxz plokmn vbtrq zzyx");
      await form.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page.getByText("No results above the score threshold (0.3)")).toBeVisible({ timeout: 30_000 });
      await checkScreen(page, problems, "search, nothing above the threshold");
      await form.getByLabel("Score threshold").fill("0");
      await form.getByRole("button", { name: "Search", exact: true }).click();
      const results = page.getByRole("list", { name: "Search results" });
      await expect(results.getByRole("listitem").first()).toBeVisible();

      await form.getByLabel("Search", { exact: true }).fill("rock columns saws");
      await form.getByLabel("Top K").selectOption("5");
      await form.getByLabel("Source").selectOption({ label: "granite.md" });
      await form.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page).toHaveURL(/k=5/);
      await expect(results.getByRole("listitem").first()).toContainText("granite.md");
      await checkScreen(page, problems, "search results");
      await expect(results).not.toContainText("basalt.md");

      // The element viewer's type filter lists the type on every page, each with its page.
      const pdfPath = testInfo.outputPath("report.pdf");
      await writeFile(pdfPath, await pdfDoc({ pages: 3, title: "Sandstone Report" }));
      await page.goto(`/${projectId}/sources`);
      await page.getByLabel("Files", { exact: true }).setInputFiles(pdfPath);
      const table = page.getByRole("table", { name: "Sources" });
      await expect(table.getByRole("row", { name: /report\.pdf/ }).getByText("Completed")).toBeVisible({
        timeout: 90_000,
      });
      await expect(table.getByRole("row", { name: /report\.pdf/ })).toContainText("3 pages");
      await table.getByRole("link", { name: "report.pdf" }).click();
      await expect(page.getByRole("group", { name: "Element boxes on page 1" })).toBeVisible({ timeout: 30_000 });
      const typeSelect = page.getByLabel("Element type");
      const options = await typeSelect.locator("option").allTextContents();
      // The most frequent type: the body text, which is on every page.
      const [label, , total] = options
        .map((o) => /^(\w+) \((\d+)\)$/.exec(o))
        .filter((m) => m !== null)
        .sort((a, b) => Number(b[2]) - Number(a[2]))[0]!;
      await typeSelect.selectOption({ label });
      const items = page.getByRole("list", { name: "Elements" }).getByRole("listitem");
      await expect(items).toHaveCount(Number(total));
      await expect(page.getByText(`${total} elements on all pages`)).toBeVisible();
      expect(new Set(await items.getByText(/^Page \d+$/).allTextContents()).size).toBeGreaterThan(1);
      await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
      await checkScreen(page, problems, "element viewer");
      expect(problems).toEqual([]);
    });

    test("the dataset picker offers built sources; test cases are added and edited in the UI", async ({ page }) => {
      test.setTimeout(240_000);
      const problems = watchProblems(page);
      const projectId = await projectWithSources(page, problems, "cases");
      // Setup only: an empty flow (what the test is about goes through the UI).
      await trpc(page, "dashboard.flows.create", { projectId, name: "stone-answers" });
      const phone = viewport.width < 1024;
      if (phone) {
        // A phone's canvas is read-only (no palette): its dataset node is set up through the API instead.
        const ref = { projectId, name: "stone-answers" };
        const draft = await trpc<{ draftVersion: number }>(page, "dashboard.flows.get", ref, "query");
        const dataset = {
          id: "dataset-1764000000001",
          type: "dataset",
          position: { x: 0, y: 0 },
          data: { name: "Stone notes", config: { fileIds: [] } },
        };
        await trpc(page, "dashboard.flows.saveDraft", {
          ...ref,
          graph: { nodes: [dataset], edges: [] },
          expectedVersion: draft.draftVersion,
        });
      }
      await page.goto(`/${projectId}/flows/stone-answers`);
      if (!phone)
        await page
          .getByRole("navigation", { name: "Node palette" })
          .getByRole("button", { name: "Add Dataset", exact: true })
          .dragTo(page.locator(".react-flow__pane"), { targetPosition: { x: 140, y: 70 } });
      await page.locator('.react-flow__node[data-id^="dataset-"]').click();
      const picker = page.getByRole("list", { name: "Project sources" });
      await expect(picker.getByText("basalt.md")).toBeVisible();
      await expect(picker.getByText("granite.md")).toBeVisible();
      await expect(picker.getByText("broken.pdf")).toHaveCount(0);
      await checkScreen(page, problems, "flow editor, dataset node");

      const panel = page.getByRole("region", { name: "Flow panel" });
      await panel.getByRole("tab", { name: "Evaluate" }).click();
      await panel.getByLabel("New test set").fill("handmade");
      await panel.getByRole("button", { name: "Create" }).click();
      await expect(page.getByRole("status", { name: "Notifications" })).toContainText("Test set handmade created");
      const set = panel.getByRole("listitem", { name: "Test set handmade" });
      await expect(set).toContainText("0 cases");
      const add = set.getByRole("form", { name: "Add case" });
      await add.getByLabel("Question").fill("How are granite blocks cut?");
      await add.getByLabel("Expected answer").fill("With wire saws.");
      await add.getByRole("button", { name: "Add case" }).click();
      await expect(set).toContainText("1 case");
      await expect(set.getByRole("list", { name: "Cases of handmade" })).toContainText("With wire saws.");

      await set.getByRole("button", { name: "Edit case 1" }).click();
      const edit = set.getByRole("form", { name: "Save case" });
      await edit.getByLabel("Expected answer").fill("With diamond wire saws.");
      await edit.getByRole("button", { name: "Save case" }).click();
      await expect(page.getByRole("status", { name: "Notifications" })).toContainText("Test case saved");
      await expect(set.getByRole("list", { name: "Cases of handmade" })).toContainText("With diamond wire saws.");
      // The run form counts it too.
      await expect(panel.getByRole("form", { name: "Run an evaluation" }).getByLabel("Test set")).toContainText(
        "handmade (1)",
      );
      await checkScreen(page, problems, "evaluate tab");
      expect(problems).toEqual([]);
    });
  });
}
