import { expect as baseExpect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { pdfDoc } from "../../server/testing/fixtures";
import { checkA11y, pickTheme, THEMES, type Theme } from "../helpers/axe";
import { createInvitation, joinByInvitation, trpc } from "../helpers/dashboard";
import { createProject, defaultTeamId, uploadSources } from "../helpers/project";

/**
 * axe-core on every dashboard page (issue 30): WCAG 2.0/2.1 A and AA, no serious or critical violation, in the light
 * and the dark theme. The owner walks every page with real content (a PDF with element boxes, search results, a chat
 * answer, a flow with nodes and each of its panel's tabs); a member and a viewer walk the pages they share. A failure
 * names the page, the rule, the element and axe's help text; every page is checked before the test fails.
 *
 * The setup page exists only before the owner does, so e2e/owner.setup.ts checks it on its one visit.
 */

// Pages under a dozen axe runs and a shared machine's load: patience for every wait.
const expect = baseExpect.configure({ timeout: 30_000 });

type Stop = { name: string; path: string; ready?: (page: Page) => Locator };

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).first();

/** Opens each page, waits for what it shows, and checks it. */
const walk = async (page: Page, who: string, theme: Theme, stops: Stop[]) => {
  for (const stop of stops) {
    await page.goto(stop.path);
    await expect(heading(page)).toBeVisible({ timeout: 30_000 });
    if (stop.ready) await expect(stop.ready(page).first()).toBeVisible({ timeout: 30_000 });
    // The project's name in the navigation arrives with its own query.
    await expect(page.getByRole("navigation", { name: "Project" }).getByText("…", { exact: true })).toHaveCount(0);
    await checkA11y(page, `${stop.name} as ${who}, ${theme} theme`);
  }
};

/** What the walks need: a project with a processed PDF and notes, and a flow made from a template. */
type World = { projectId: string; teamId: string; sourcePath: string; flowName: string };
let world: World;

const buildWorld = async (browser: Browser): Promise<World> => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const projectId = await createProject(page, `a11y-${Date.now()}`);
  const pdf = await pdfDoc({ pages: 2, title: "Sandstone Report" });
  const basalt = "# Basalt\n\nBasalt columns cool into hexagons. Lava cools fast at the surface.\n";
  await uploadSources(
    page,
    [
      { name: "sandstone-report.pdf", text: pdf, mimeType: "application/pdf" },
      { name: "basalt.md", text: basalt },
    ],
    120_000,
  );
  const table = page.getByRole("table", { name: "Sources" });
  const sourcePath = (await table.getByRole("link", { name: "sandstone-report.pdf" }).getAttribute("href"))!;
  const teamId = await defaultTeamId(page);
  await trpc(page, "dashboard.flowFiles.fromTemplate", { projectId, template: "plain-rag" });
  await context.close();
  return { projectId, teamId, sourcePath, flowName: "plain-rag" };
};

const projectStops = (w: World, role: "owner" | "member" | "viewer"): Stop[] => {
  const p = `/${w.projectId}`;
  const stops: Stop[] = [
    { name: "Projects", path: "/" },
    {
      name: "Sources",
      path: `${p}/sources`,
      ready: (page) => page.getByRole("table", { name: "Sources" }).getByText("Completed"),
    },
    {
      name: "Source page with elements",
      path: `${w.sourcePath}?page=1`,
      ready: (page) => page.getByRole("group", { name: "Element boxes on page 1" }),
    },
    { name: "Flows", path: `${p}/flows`, ready: (page) => page.getByRole("table", { name: "Flows" }) },
    { name: "Models", path: `${p}/settings/models` },
    { name: "Account", path: "/account" },
  ];
  if (role !== "viewer") stops.push({ name: "Usage", path: `${p}/usage` });
  if (role === "owner")
    stops.push(
      { name: "API tokens", path: `${p}/settings/api-tokens` },
      { name: "Webhooks", path: `${p}/settings/webhooks` },
      { name: "Project settings", path: `${p}/settings/general` },
      { name: "Members", path: `/teams/${w.teamId}`, ready: (page) => page.getByRole("table", { name: "Members" }) },
      { name: "Providers", path: `/teams/${w.teamId}/providers` },
      {
        name: "API reference",
        path: `${p}/api-reference`,
        ready: (page) => page.getByTestId("api-reference").getByText("Upload a file and build it"),
      },
    );
  return stops;
};

const askAndCheck = async (page: Page, label: (name: string) => string) => {
  await page.getByLabel("Question", { exact: true }).fill("How do basalt columns cool?");
  await page.getByRole("button", { name: "Ask" }).click();
  const conversation = page.getByRole("list", { name: "Conversation" });
  await expect(conversation.getByRole("list", { name: "Citations" }).first()).toBeVisible({ timeout: 60_000 });
  await checkA11y(page, label("Chat with an answer"));
};

/** Search with results, a chat answer, the flow editor and each tab of its panel: pages that need a user's steps. */
const walkInteractive = async (page: Page, who: string, theme: Theme, w: World) => {
  const label = (name: string) => `${name} as ${who}, ${theme} theme`;
  await page.goto(`/${w.projectId}/search`);
  await page.getByLabel("Search", { exact: true }).fill("basalt hexagons");
  await page.getByLabel("Search type").selectOption("keyword");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("list", { name: "Search results" }).getByRole("link").first()).toBeVisible();
  await checkA11y(page, label("Search with results"));

  await page.goto(`/${w.projectId}/chat`);
  await expect(page.getByRole("heading", { level: 1, name: "Chat" })).toBeVisible();
  await checkA11y(page, label("Chat, empty"));
  // Asking is a member's (it spends model tokens); a viewer reads the form, disabled.
  if (who === "viewer") await expect(page.getByRole("button", { name: "Ask" })).toBeDisabled();
  else await askAndCheck(page, label);

  await page.goto(`/${w.projectId}/flows/${w.flowName}`);
  await expect(page.locator(".react-flow__node")).toHaveCount(3, { timeout: 30_000 });
  await checkA11y(page, label("Flow editor with nodes"));
  const panel = page.getByRole("region", { name: "Flow panel" });
  await page.locator(".react-flow__node").first().click();
  await checkA11y(page, label("Flow editor, a node's settings"));
  for (const tab of ["Checklist", "Run", "Evaluate", "Revisions"]) {
    await panel.getByRole("tab", { name: tab }).click();
    await expect(panel.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
    await checkA11y(page, label(`Flow editor, ${tab} tab`));
  }
};

// Each walk loads a dozen pages and runs axe on each (the API reference's DOM is large): minutes on 2 shared cores.
const WALK_TIMEOUT = 600_000;

test("the signed-out pages: sign-in, a spent invitation, not found", async ({ browser, baseURL }) => {
  test.setTimeout(WALK_TIMEOUT);
  const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await signedOut.newPage();
  for (const theme of THEMES) {
    await pickTheme(signedOut, visitor, baseURL!, theme);
    await visitor.goto("/sign-in");
    await expect(visitor.getByRole("button", { name: "Sign in" })).toBeVisible();
    await checkA11y(visitor, `Sign in, ${theme} theme`);
    // A wrong password shows the form's error state.
    await visitor.getByLabel("Email").fill("nobody@e2e.test");
    await visitor.getByLabel("Password").fill("wrong-password");
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await expect(visitor.getByText("Invalid email or password")).toBeVisible();
    await checkA11y(visitor, `Sign in with an error, ${theme} theme`);
    await visitor.goto("/invite/no-such-invitation-token-0000");
    await expect(visitor.getByRole("heading", { name: "This invitation is no longer valid" })).toBeVisible();
    await checkA11y(visitor, `Invalid invitation, ${theme} theme`);
    await visitor.goto("/no/such/page");
    await expect(visitor.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await checkA11y(visitor, `Not found, ${theme} theme`);
  }
  await signedOut.close();
});

test.describe("signed in", () => {
  test.beforeAll(async ({ browser }) => {
    // Processing a PDF and drawing its page images, on 2 shared cores.
    test.setTimeout(300_000);
    world = await buildWorld(browser);
  });

  for (const theme of THEMES) {
    test(`every page as the owner, ${theme} theme`, async ({ page, context, baseURL }) => {
      test.setTimeout(WALK_TIMEOUT);
      await pickTheme(context, page, baseURL!, theme);
      await walk(page, "owner", theme, projectStops(world, "owner"));
      await walkInteractive(page, "owner", theme, world);
    });
  }

  for (const role of ["member", "viewer"] as const) {
    test(`the invitation, then the pages a ${role} shares, in both themes`, async ({ page, browser, baseURL }) => {
      test.setTimeout(WALK_TIMEOUT);
      const link = await createInvitation(page, role);
      const joined = await joinByInvitation(
        browser,
        link,
        { name: `A11y ${role}`, email: `a11y-${role}-${Date.now()}@e2e.test`, password: `${role}-password-1` },
        // The invitation page, before the account exists.
        async (invited) => {
          for (const theme of THEMES) {
            await pickTheme(invited.context(), invited, baseURL!, theme);
            await invited.reload();
            await expect(invited.getByRole("heading", { name: "Join Default team" })).toBeVisible();
            await checkA11y(invited, `Invitation (${role}), ${theme} theme`);
          }
        },
      );
      // The roles differ in markup (what they are offered), the themes in colour: the steps are walked once.
      for (const theme of THEMES) {
        await pickTheme(joined.context(), joined, baseURL!, theme);
        await walk(joined, role, theme, projectStops(world, role));
      }
      await walkInteractive(joined, role, "dark", world);
      await joined.context().close();
    });
  }
});
