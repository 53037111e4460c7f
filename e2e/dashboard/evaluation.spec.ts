import { expect, test } from "@playwright/test";
import { createFlow, searchFlowGraph } from "../helpers/flow";
import { watchProblems } from "../helpers/layout";
import { createProject, sourceIds, uploadSources } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES } from "../helpers/screen";

const DOCS = {
  "granite.md": "# Granite\n\nGranite blocks are cut from the quarry face with diamond wire saws.\n",
  "marble.md": "# Marble\n\nMarble slabs are polished with tin oxide until they shine.\n",
};

const CASES = [
  {
    question: "How are granite blocks cut?",
    expected_answer: "With diamond wire saws.",
    relevant_files: ["granite.md"],
  },
  { question: "How is marble polished?", expected_answer: "With tin oxide.", relevant_files: ["marble.md"] },
];

/**
 * A test set imported, run against the draft and the deployed revision, and the two runs compared. The flow is set up
 * through the API (a phone's canvas is read-only; the panel's evaluation works there too). At a laptop's and a
 * phone's size, every screen on the way fits the window, has no console error or failed request, and no serious axe
 * violation.
 */
for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("a test set imported, run against the draft and the deployed revision, and the two runs compared", async ({
      page,
    }) => {
      test.setTimeout(240_000);
      // The refused broken file below is a 400 by design.
      const problems = watchProblems(
        page,
        (url, status) => status === 400 && url.includes("dashboard.evaluation.importTestSet"),
      );

      // A project of its own with two Completed sources and a flow over them.
      const projectId = await createProject(page, `evaluation-${viewport.width}-${Date.now()}`);
      await uploadSources(
        page,
        Object.entries(DOCS).map(([name, text]) => ({ name, text })),
      );
      const graph = searchFlowGraph({ fileIds: await sourceIds(page, projectId), retrievalName: "Hybrid search" });
      await createFlow(page, { projectId, name: "stone-answers" }, graph);

      // 1. Import the test set from a JSONL file in the Evaluate tab; a bad file is refused with its line.
      await page.goto(`/${projectId}/flows/stone-answers`);
      const panel = page.getByRole("region", { name: "Flow panel" });
      await panel.getByRole("tab", { name: "Evaluate" }).click();
      await checkScreen(page, problems, "evaluate tab");
      const importForm = panel.getByRole("form", { name: "Import a test set" });
      await importForm.getByLabel("Test set file").setInputFiles({
        name: "broken.jsonl",
        mimeType: "application/x-ndjson",
        buffer: Buffer.from('{"question":"ok"}\n{"expected_answer":"no question"}\n'),
      });
      await importForm.getByRole("button", { name: "Import" }).click();
      await expect(importForm.getByText("Line 2: question is required")).toBeVisible();
      await checkScreen(page, problems, "a refused test set");
      await importForm.getByLabel("Test set file").setInputFiles({
        name: "stones.jsonl",
        mimeType: "application/x-ndjson",
        buffer: Buffer.from(CASES.map((c) => JSON.stringify(c)).join("\n")),
      });
      await importForm.getByLabel("Test set name").fill("stones");
      await importForm.getByRole("button", { name: "Import" }).click();
      await expect(panel.getByRole("listitem", { name: "Test set stones" })).toContainText("2 cases");

      // 2. Evaluate the draft: progress, then the per-case table with exact precision/recall and "—" with its reason.
      const runForm = panel.getByRole("form", { name: "Run an evaluation" });
      await runForm.getByLabel("Test set").selectOption({ label: "stones (2)" });
      await runForm.getByRole("button", { name: "Evaluate" }).click();
      const runs = panel.getByRole("region", { name: "Evaluation runs" });
      const draftRun = runs.getByRole("listitem", { name: /^Run draft / });
      await expect(draftRun.getByText("completed")).toBeVisible({ timeout: 60_000 });
      // The response node shows the run's aggregate, fresh.
      const quality = page.locator('.react-flow__node[data-id^="response-"]').getByLabel("Quality metrics");
      await expect(quality.getByLabel("Context precision")).toHaveText("P 1.00");
      await expect(quality.getByText("stale")).toHaveCount(0);
      const results = page.getByRole("region", { name: "Evaluation results" });
      const cases = results.getByRole("table", { name: "Evaluation cases" });
      await expect(cases.getByRole("row")).toHaveCount(3);
      await expect(cases.getByText("How are granite blocks cut?")).toBeVisible();
      await expect(cases.getByLabel("— (no chat model configured to judge)").first()).toBeVisible();
      await expect(results.getByText("no chat model configured to judge").first()).toBeVisible();
      // A row opens to its passages and each metric's reason.
      await cases.getByText("How are granite blocks cut?").click();
      await expect(cases.getByRole("list", { name: "Retrieved passages" })).toContainText("granite.md");
      await expect(cases.getByText(/exact, from the gold relevant documents/).first()).toBeVisible();
      await checkScreen(page, problems, "evaluation results of the draft");

      // 3. Deploy, evaluate the deployed revision, and compare the two runs side by side.
      await page.getByRole("button", { name: "Deploy", exact: true }).click();
      const deploy = page.getByRole("dialog", { name: "Deploy stone-answers" });
      await expect(deploy).toBeVisible();
      await checkScreen(page, problems, "deploy dialog");
      await deploy.getByRole("button", { name: "Deploy now" }).click();
      await expect(page.getByText("Flow 'stone-answers' deployed successfully")).toBeVisible({ timeout: 60_000 });
      // Another revision serves now: the draft's evaluation no longer describes it.
      await expect(quality.getByText("stale")).toBeVisible();
      await runForm.getByLabel("Against").selectOption({ label: "Deployed revision 1" });
      await runForm.getByRole("button", { name: "Evaluate" }).click();
      const revisionRun = runs.getByRole("listitem", { name: "Run revision 1" });
      await expect(revisionRun.getByText("completed")).toBeVisible({ timeout: 60_000 });
      await expect(quality.getByText("stale")).toHaveCount(0);
      await draftRun.getByRole("checkbox", { name: /^Compare/ }).check();
      await revisionRun.getByRole("checkbox", { name: /^Compare/ }).check();
      const comparison = page.getByRole("region", { name: "Evaluation comparison" });
      const chart = comparison.getByRole("img", { name: "Metrics of both runs" });
      await expect(chart.getByRole("application")).toBeVisible();
      // Precision, recall and nDCG@10 have values in both runs: a bar each; the judged metrics have none.
      await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(6);
      await expect(comparison.getByRole("table", { name: "Compared metrics" }).getByRole("row")).toHaveCount(6);
      await expect(comparison.getByRole("table", { name: "Compared cases" }).getByRole("row")).toHaveCount(3);
      await checkScreen(page, problems, "evaluation comparison");
      expect(problems).toEqual([]);
    });
  });
}
