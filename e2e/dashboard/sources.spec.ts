import { writeFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { pdfDoc } from "../../server/testing/fixtures";
import { watchProblems } from "../helpers/layout";
import { createProject } from "../helpers/project";
import { checkScreen, closeMenu, JOURNEY_SIZES, openMenu, openProjectLink } from "../helpers/screen";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A project from upload to live status, element boxes on the page, search and delete. At a laptop's and a phone's
 * size, every screen on the way fits the window, has no console error or failed request, and no serious axe violation.
 */
for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("a project from upload to live status, element boxes on the page, search, and delete", async ({
      page,
    }, testInfo) => {
      // One journey through the whole page: processing three files and drawing two page images takes a while on 2 cores.
      test.setTimeout(240_000);
      // The unsupported file below is refused on purpose (4xx from the upload).
      const problems = watchProblems(
        page,
        (url, status) => status < 500 && /\/api\/projects\/[^/]+\/upload$/.test(url),
      );
      const streams: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/events")) streams.push(r.url());
      });

      // A new project in the owner's team.
      const projectName = `papers-${viewport.width}-${Date.now()}`;
      await createProject(page, projectName);
      await openMenu(page);
      await expect(page.getByRole("navigation", { name: "Project" }).getByText(projectName)).toBeVisible();
      await closeMenu(page);
      await expect(page.getByText("No sources yet")).toBeVisible();
      await checkScreen(page, problems, "a new project's sources");

      // Several files at once from the file chooser, and one dropped on the page.
      const pdfPath = testInfo.outputPath("sandstone-report.pdf");
      await writeFile(pdfPath, await pdfDoc({ pages: 2, title: "Sandstone Report" }));
      const notesPath = testInfo.outputPath("field-notes.md");
      await writeFile(notesPath, "# Field notes\n\nThe sandstone beds dip gently to the east.\n");
      await page.getByLabel("Files", { exact: true }).setInputFiles([pdfPath, notesPath]);
      const dropped = await page.evaluateHandle(() => {
        const transfer = new DataTransfer();
        transfer.items.add(
          new File(["# Dropped\n\nBasalt columns cool into hexagons.\n"], "dropped.md", { type: "text/markdown" }),
        );
        return transfer;
      });
      await page.getByRole("group", { name: "Drop files here" }).dispatchEvent("drop", { dataTransfer: dropped });
      const uploads = page.getByRole("list", { name: "Uploads" });
      // Finished uploads fold into one line instead of a row each (issue 30), so the table below stays in place.
      await expect(uploads.getByText("3 files uploaded; processing has started.")).toBeVisible();

      // Rows turn Completed by themselves: the server pushes status changes over the project's event stream.
      const table = page.getByRole("table", { name: "Sources" });
      for (const name of ["sandstone-report.pdf", "field-notes.md", "dropped.md"]) {
        const row = table.getByRole("row", { name: new RegExp(escape(name)) });
        await expect(row.getByText("Completed", { exact: true })).toBeVisible({ timeout: 90_000 });
      }
      expect(streams.length).toBeGreaterThan(0);
      await expect(page.getByText("3 sources")).toBeVisible();
      await checkScreen(page, problems, "sources after uploads");

      // Filter and sort on the server.
      await page.getByLabel("Filter by type").selectOption("pdf");
      await expect(table.getByRole("row")).toHaveCount(2); // header + the PDF
      await page.getByLabel("Filter by type").selectOption("");
      await table.getByRole("button", { name: "File" }).click();
      await expect(table.getByRole("row").nth(1)).toContainText("dropped.md");

      // An unsupported file fails with the server's reason, and nothing is added.
      const bad = testInfo.outputPath("notes.xyz");
      await writeFile(bad, "not a format\n");
      await page.getByLabel("Files", { exact: true }).setInputFiles(bad);
      await expect(uploads.getByRole("alert")).toHaveText("Unsupported file type: .xyz");
      await checkScreen(page, problems, "sources with a refused upload");

      // The element viewer: the page image with every element's box drawn over it.
      await table.getByRole("link", { name: "sandstone-report.pdf" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "sandstone-report.pdf" })).toBeVisible();
      const boxes = page.getByRole("group", { name: "Element boxes on page 1" });
      await expect(boxes).toBeVisible({ timeout: 30_000 });
      const count = await boxes.locator("[data-element-box]").count();
      expect(count).toBeGreaterThan(2);
      const title = boxes.getByRole("button", { name: /^Title: Sandstone Report/ });
      // The title's box sits in the top part of the page image.
      const image = await page.getByRole("img", { name: "Page 1" }).boundingBox();
      const titleBox = await title.boundingBox();
      expect(titleBox!.y - image!.y).toBeLessThan(image!.height / 3);
      await title.click();
      const details = page.getByRole("article", { name: "Element details" });
      await expect(details.getByLabel("Element text")).toHaveText("Sandstone Report");
      await expect(details.getByText("Title", { exact: true })).toBeVisible();
      await expect(page).toHaveURL(/element=[0-9a-f]{32}/);
      await checkScreen(page, problems, "element viewer with an element selected");

      // Filter by type and move between pages.
      await page.getByLabel("Element type").selectOption("Title");
      await expect(page.getByRole("list", { name: "Elements" }).getByRole("listitem")).toHaveCount(1);
      await page.getByLabel("Element type").selectOption("");
      await page.getByRole("button", { name: "Next page" }).click();
      // The page image is drawn on demand in a worker process.
      await expect(page.getByRole("group", { name: "Element boxes on page 2" })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("region", { name: "Build history" }).getByText("Completed")).toBeVisible();
      await checkScreen(page, problems, "element viewer on page 2");

      // Search the project; a hit opens the viewer on its page with the element selected.
      await openProjectLink(page, "Search");
      await page.getByLabel("Search", { exact: true }).fill("basalt hexagons");
      await page.getByLabel("Search type").selectOption("keyword");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const results = page.getByRole("list", { name: "Search results" });
      await expect(results.getByRole("link").first()).toContainText("dropped.md");
      // The page says which search ran.
      await expect(page.getByText(/\d+ results? · keyword search/)).toBeVisible();
      await checkScreen(page, problems, "search results");
      await results.getByRole("link").first().click();
      await expect(page.getByRole("heading", { level: 1, name: "dropped.md" })).toBeVisible();
      await expect(page.getByRole("article", { name: "Element details" })).toContainText("Basalt columns");

      // Delete, after confirming.
      await page.getByRole("button", { name: "Delete dropped.md" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete dropped.md?" });
      await expect(dialog).toBeVisible();
      await checkScreen(page, problems, "delete source dialog");
      await dialog.getByRole("button", { name: "Delete source" }).click();
      await expect(page).toHaveURL(/\/sources$/);
      await expect(table.getByRole("row", { name: /dropped\.md/ })).toHaveCount(0);
      await expect(page.getByText("2 sources")).toBeVisible();
      expect(problems).toEqual([]);
    });
  });
}
