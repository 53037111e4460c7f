import { expect, test, type Locator, type Page } from "@playwright/test";
import { graphFixture } from "../../server/graph-rag/graph-fixture";
import { trpc } from "../helpers/dashboard";
import { watchProblems } from "../helpers/layout";
import { createProjectByApi } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES } from "../helpers/screen";

/**
 * The knowledge-graph view of a deployed graph-rag node (issue 30): reached from the node's settings, drawn by
 * sigma.js with the community list beside it, an entity found by search and opened, a community highlighted on the
 * canvas and cleared, and, with only the top 3 entities drawn, a search hit that is not drawn added to the canvas
 * (with its relationships to the drawn ones) and focused, then every entity drawn by raising the limit; a node never
 * built says so. At a laptop's and a phone's size (one deployed flow shared by both), every screen on the way fits
 * the window, has no console error or failed request, and no serious axe violation.
 */

const NODE = "graph-rag-1764000000023";
const DATASET = "dataset-1764000000021";

/** A project of its own with the graph-rag template over a generated document, deployed through the public API. */
const deployGraphFlow = async (page: Page) => {
  await page.goto("/");
  const projectId = await createProjectByApi(page, `kgraph-${Date.now()}`);
  const { token } = await trpc<{ token: string }>(
    page,
    "dashboard.tokens.create",
    { projectId, name: "kgraph", permissions: ["read", "write", "deploy"] },
    "mutation",
  );
  const auth = { Authorization: `Bearer ${token}` };
  const upload = await page.request.post("/api/public/v1/sources/ingest-file", {
    headers: auth,
    multipart: {
      file: { name: "computing-history.txt", mimeType: "text/plain", buffer: Buffer.from(graphFixture(24)) },
    },
  });
  expect(upload.status()).toBe(200);
  const { build_id } = (await upload.json()) as { build_id: string };
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`/api/public/v1/sources/builds/${build_id}?suppress_elements=true`, {
              headers: auth,
            })
          ).json()) as { status: string }
        ).status,
      { timeout: 90_000 },
    )
    .toBe("Completed");
  const fromTemplate = async () =>
    (
      await trpc<{ name: string }>(
        page,
        "dashboard.flowFiles.fromTemplate",
        { projectId, template: "graph-rag" },
        "mutation",
      )
    ).name;
  const deployed = await fromTemplate();
  const never = await fromTemplate();
  const patch = await page.request.patch(`/api/public/v1/flows/${deployed}/datasets/${DATASET}`, {
    headers: auth,
    data: { files: ["computing-history.txt"] },
  });
  expect(patch.status(), await patch.text()).toBe(200);
  const deploy = await page.request.post(`/api/public/v1/flows/${deployed}/deploy`, {
    headers: auth,
    data: {},
    timeout: 240_000,
  });
  expect(deploy.status(), await deploy.text()).toBe(200);
  return { projectId, deployed, never };
};

type Seeded = Awaited<ReturnType<typeof deployGraphFlow>>;
let seeded: Seeded | undefined;

/** The deployed flow both sizes read: built by the first test that needs it (tests of a file share a worker). */
const deployedGraphFlow = async (page: Page) => (seeded ??= await deployGraphFlow(page));

/** How far the page, or its widest element, is wider than the window (0 or less when everything fits). */
const overflow = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      document.documentElement.scrollWidth - window.innerWidth,
      ...[...document.querySelectorAll("body *")].map((el) => el.getBoundingClientRect().width - window.innerWidth),
    ),
  );

const findAndOpen = async (page: Page) => {
  const canvas = page.getByTestId("knowledge-graph-canvas");
  await expect(canvas).toBeVisible();
  // sigma draws into its own canvases inside the container.
  await expect(canvas.locator("canvas").first()).toBeVisible();
  const communities = page.getByRole("region", { name: "Communities" });
  await expect(communities.getByRole("listitem")).not.toHaveCount(0);
  await expect(communities).toContainText("entities");
  await page.getByLabel("Find an entity").fill("hopp");
  const matches = page.getByRole("list", { name: "Matching entities" });
  await matches.getByRole("button", { name: /Grace Hopper/ }).click();
  const details = page.getByRole("region", { name: "Selected entity" });
  await expect(details.getByRole("heading", { name: "Grace Hopper" })).toBeVisible();
  await expect(details).toContainText("Community");
  const passages = details.getByRole("list", { name: "Passages it comes from" });
  await expect(passages.getByRole("listitem").first()).toContainText("Grace Hopper");
  await expect(passages.getByRole("listitem").first()).toContainText("computing-history.txt");
  // A related entity opens in turn.
  const related = details.getByRole("list", { name: "Related entities" }).getByRole("button").first();
  const next = (await related.textContent())!;
  await related.click();
  await expect(details.getByRole("heading", { level: 2 })).toHaveText(next);
  await highlightCommunity(page, canvas, communities);
  return { canvas, communities };
};

/**
 * A community clicked in the list keeps its entities in colour on the canvas (the canvas reports how many its reducer
 * left in colour, which must be the community's drawn entities, fewer than all) and shows its whole summary; Escape
 * clears it, and so does a second click.
 */
const highlightCommunity = async (page: Page, canvas: Locator, communities: Locator) => {
  const first = communities.getByRole("button").first();
  await first.click();
  await expect(first).toHaveAttribute("aria-pressed", "true");
  const status = page.getByRole("status").filter({ hasText: "Highlighted:" });
  await expect(status).toBeVisible();
  const drawn = Number(/(\d+) entit(?:y|ies) drawn/.exec((await status.textContent())!)![1]);
  const all = Number(/(\d+) entities/.exec((await canvas.getAttribute("aria-label"))!)![1]);
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(all);
  await expect(canvas).toHaveAttribute("data-highlighted", String(drawn));
  await page.keyboard.press("Escape");
  await expect(status).toHaveCount(0);
  await expect(canvas).not.toHaveAttribute("data-highlighted");
  await expect(first).toHaveAttribute("aria-pressed", "false");
  await first.click();
  await expect(canvas).toHaveAttribute("data-highlighted", String(drawn));
  await first.click();
  await expect(canvas).not.toHaveAttribute("data-highlighted");
};

type Graph = {
  entities: { id: string; name: string }[];
  relationships: { source: string; target: string }[];
};

/**
 * An entity outside the top 3 that relates to one of them (read through the API: the test is about the page), with how
 * many of its relationships end at the top 3.
 */
const relatedOutsider = async (page: Page, scope: { projectId: string; flow: string }) => {
  const graphOf = (limit: number) =>
    trpc<Graph>(page, "dashboard.flows.knowledgeGraph", { ...scope, node: NODE, limit }, "query");
  const top = new Set((await graphOf(3)).entities.map((e) => e.id));
  const all = await graphOf(1000);
  const tie = all.relationships.find((r) => top.has(r.source) !== top.has(r.target))!;
  expect(tie, "an entity outside the top 3 related to one of them").toBeDefined();
  const id = top.has(tie.source) ? tie.target : tie.source;
  const edges = all.relationships.filter(
    (r) => (r.source === id && top.has(r.target)) || (r.target === id && top.has(r.source)),
  );
  const drawnNeighbour = all.entities.find((e) => e.id === (tie.source === id ? tie.target : tie.source))!.name;
  return { name: all.entities.find((e) => e.id === id)!.name, edges: edges.length, drawnNeighbour };
};

/**
 * With the top 3 drawn, the server-side search finds an entity that is not on the canvas; picking it adds it to the
 * canvas, with its relationships to the drawn entities, and focuses it; the details say it was added.
 */
const openNotDrawn = async (page: Page, url: string, scope: { projectId: string; flow: string }) => {
  const outsider = await relatedOutsider(page, scope);
  await page.goto(`${url}&top=3`);
  await expect(page.getByTestId("knowledge-graph-drawn")).toHaveText(/^Drawn: the top 3 of \d+ entities/);
  const canvas = page.getByTestId("knowledge-graph-canvas");
  await expect(canvas).toHaveAttribute("aria-label", /: 3 entities/);
  const drawnEdges = Number(/and (\d+) relationships/.exec((await canvas.getAttribute("aria-label"))!)![1]);
  await page.getByLabel("Find an entity").fill(outsider.name);
  const matches = page.getByRole("list", { name: "Matching entities" });
  await expect(matches).toHaveAttribute("aria-busy", "false");
  const hit = matches.getByRole("button").filter({ hasText: "not drawn" }).filter({ hasText: outsider.name }).first();
  await hit.click();
  await expect(canvas).toHaveAttribute(
    "aria-label",
    `Knowledge graph: 4 entities and ${drawnEdges + outsider.edges} relationships`,
  );
  await expect(canvas).toHaveAttribute("data-focused", outsider.name);
  const details = page.getByRole("region", { name: "Selected entity" });
  await expect(details.getByRole("heading", { level: 2 })).toHaveText(outsider.name);
  await expect(details.getByRole("note")).toContainText("Added to the canvas");
  await expect(details.getByRole("list", { name: "Related entities" })).toContainText(outsider.drawnNeighbour);
  await expect(
    details.getByRole("list", { name: "Passages it comes from" }).getByRole("listitem").first(),
  ).toBeVisible();
  // Now drawn, the search says so.
  await expect(matches.getByRole("button").filter({ hasText: outsider.name }).first()).not.toContainText("not drawn");
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  // Drawing more puts every entity of this small graph on the canvas.
  await page.getByLabel("Draw at most").selectOption("100");
  await expect(page).toHaveURL(/&top=100$/);
  await expect(page.getByTestId("knowledge-graph-drawn")).toHaveText(/^All \d+ entities are drawn/);
};

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("the knowledge graph of a deployed graph-rag node", async ({ page }) => {
      test.setTimeout(300_000);
      const phone = viewport.width < 768;
      const problems = watchProblems(page);
      const { projectId, deployed, never } = await deployedGraphFlow(page);

      // From the node's settings in the flow editor (read-only on a phone, where the link is there too).
      await page.goto(`/${projectId}/flows/${deployed}`);
      await page.locator(`.react-flow__node[data-id="${NODE}"]`).click();
      await checkScreen(page, problems, "graph-rag node settings");
      await page.getByRole("link", { name: "View the knowledge graph" }).click();
      await expect(page).toHaveURL(new RegExp(`/flows/${deployed}/graph\\?node=${NODE}$`));
      await expect(page.getByRole("heading", { level: 1, name: "Knowledge graph: Knowledge graph" })).toBeVisible();
      await expect(page.getByText(/\d+ entities · \d+ relationships · \d+ communities/)).toBeVisible();
      const { canvas, communities } = await findAndOpen(page);
      const canvasBox = (await canvas.boundingBox())!;
      if (phone) {
        // On a phone the canvas fits the window and the lists stack below it.
        expect(canvasBox.width).toBeLessThanOrEqual(viewport.width);
        expect(canvasBox.width).toBeGreaterThan(300);
        expect((await communities.boundingBox())!.y).toBeGreaterThan(canvasBox.y + canvasBox.height);
      } else {
        // Side by side on a laptop.
        expect((await communities.boundingBox())!.x).toBeGreaterThan(canvasBox.x + canvasBox.width - 1);
      }
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await checkScreen(page, problems, "knowledge graph with an entity open");
      const graphUrl = page.url();
      await openNotDrawn(page, graphUrl, { projectId, flow: deployed });
      await checkScreen(page, problems, "knowledge graph with every entity drawn");

      // A node whose flow was never deployed says so.
      await page.goto(`/${projectId}/flows/${never}/graph?node=${NODE}`);
      await expect(page.getByText("This graph has not been built")).toBeVisible();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await checkScreen(page, problems, "a graph never built");
      expect(problems).toEqual([]);
    });
  });
}
