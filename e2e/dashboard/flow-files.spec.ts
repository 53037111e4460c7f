import { readFile, writeFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { trpc } from "../helpers/dashboard";
import { watchProblems } from "../helpers/layout";
import { createProject, uploadSources } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES, openProjectLink } from "../helpers/screen";

/**
 * Flows in and out of the dashboard: a template becomes a draft on the canvas, an exported file comes back under
 * another name through "Import a flow file", a file that is not JSON is refused with a reason, a duplicate joins the
 * list, and an earlier revision serves again with one click. At a laptop's and a phone's size, every screen on the
 * way fits the window, has no console error or failed request, and no serious axe violation.
 */

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("templates, import, export, duplicate, and a one-click rollback", async ({ page }, testInfo) => {
      test.setTimeout(240_000);
      const problems = watchProblems(page);
      const projectId = await createProject(page, `flow-files-${Date.now()}`);
      await uploadSources(page, [
        { name: "basalt.md", text: "# Basalt\n\nBasalt columns cool into hexagons when lava cools slowly.\n" },
      ]);

      // 1. A template, one click from a draft on the canvas.
      await checkScreen(page, problems, "sources");
      await openProjectLink(page, "Flows");
      const templates = page.getByRole("list", { name: "Flow templates" });
      await expect(templates.getByRole("listitem")).toHaveCount(4);
      await checkScreen(page, problems, "flows and templates");
      await templates.getByRole("button", { name: "Use template plain-rag" }).click();
      await expect(page).toHaveURL(new RegExp(`/${projectId}/flows/plain-rag$`));
      await expect(page.locator(".react-flow__node")).toHaveCount(3);
      await checkScreen(page, problems, "flow from a template");

      // 2. Export it, and import the file under another name.
      await page.goto(`/${projectId}/flows`);
      const flows = page.getByRole("table", { name: "Flows" });
      const download = page.waitForEvent("download");
      await flows.getByRole("button", { name: "Export plain-rag" }).click();
      const exported = JSON.parse(await readFile((await (await download).path())!, "utf8"));
      expect(exported).toMatchObject({ format: "quarry-flow/1", name: "plain-rag" });
      const renamed = testInfo.outputPath("answers.json");
      await writeFile(renamed, JSON.stringify({ ...exported, name: "basalt-answers" }));
      await page.getByLabel("Import a flow file").setInputFiles(renamed);
      await expect(page).toHaveURL(new RegExp(`/${projectId}/flows/basalt-answers$`));

      // A file that is not JSON says so; a duplicate joins the list.
      await page.goto(`/${projectId}/flows`);
      const junk = testInfo.outputPath("junk.json");
      await writeFile(junk, "not json at all");
      await page.getByLabel("Import a flow file").setInputFiles(junk);
      await expect(page.getByText("junk.json is not JSON")).toBeVisible();
      await flows.getByRole("button", { name: "Duplicate plain-rag" }).click();
      await expect(flows.getByRole("row", { name: /plain-rag-copy/ })).toBeVisible();
      await checkScreen(page, problems, "flows after import and duplicate");

      // 3. Two deploys of the imported flow (set up through the API), then revision 1 serves again with one click.
      const sources = await trpc<{ items: { id: string }[] }>(page, "dashboard.sources.list", { projectId }, "query");
      const ref = { projectId, name: "basalt-answers" };
      const draft = await trpc<{
        graph: { nodes: { type: string; data: { config: object } }[] };
        draftVersion: number;
      }>(page, "dashboard.flows.get", ref, "query");
      for (const node of draft.graph.nodes) {
        if (node.type === "dataset") node.data.config = { ...node.data.config, fileIds: [sources.items[0]!.id] };
      }
      await trpc(page, "dashboard.flows.saveDraft", {
        ...ref,
        graph: draft.graph,
        expectedVersion: draft.draftVersion,
      });
      await trpc(page, "dashboard.flows.deploy", { ...ref, description: "first" });
      await trpc(page, "dashboard.flows.deploy", { ...ref, description: "second" });
      await page.goto(`/${projectId}/flows/basalt-answers`);
      await page.getByRole("tab", { name: "Revisions" }).click();
      const first = page.getByRole("listitem", { name: "Revision 1" });
      await expect(page.getByRole("listitem", { name: "Revision 2" })).toContainText("Serving");
      await first.getByRole("button", { name: "Roll back to revision 1" }).click();
      await expect(page.getByText("Revision 1 serves the flow again.")).toBeVisible();
      await expect(first).toContainText("Serving");
      await expect(page.getByRole("listitem", { name: "Revision 2" })).not.toContainText("Serving");
      await expect(page.getByRole("button", { name: "Roll back to revision 2" })).toBeVisible();
      await checkScreen(page, problems, "revisions after a rollback");
      expect(problems).toEqual([]);
    });
  });
}
