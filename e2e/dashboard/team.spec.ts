import { expect, test } from "@playwright/test";
import { createInvitation } from "../helpers/dashboard";
import { watchProblems } from "../helpers/layout";
import { openDefaultProject } from "../helpers/project";
import { checkScreen, closeMenu, JOURNEY_SIZES, openMenu, openProjectLink } from "../helpers/screen";

/**
 * API tokens, the MCP endpoint, a viewer who joins by invitation and reads only, role changes that confirm themselves,
 * and the 404 page. At a laptop's and a phone's size, every screen on the way fits the window, has no console error
 * or failed request, and no serious axe violation.
 */
for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("an admin creates an API token, shown once with a curl line, and revokes it", async ({ page, request }) => {
      test.setTimeout(120_000);
      // A name of this size and run of its own: the other size's (and an earlier run's) revoked token stays listed.
      const name = `nightly import ${viewport.width}-${Date.now()}`;
      const problems = watchProblems(page);
      await openDefaultProject(page);
      await openProjectLink(page, "API tokens");
      const form = page.getByRole("form", { name: "Create token" });
      await checkScreen(page, problems, "API tokens");
      await form.getByLabel("Name").fill(name);
      await form.getByRole("checkbox", { name: /^write/ }).uncheck();
      await form.getByRole("button", { name: "Create token" }).click();

      const token = (await page.getByLabel("New token").textContent())!.trim();
      expect(token).toMatch(/^qry_[0-9A-Za-z]{40,}$/);
      await expect(page.getByLabel("Example request")).toContainText(`Authorization: Bearer ${token}`);
      await expect(page.getByRole("button", { name: "Copy token" })).toBeVisible();
      await checkScreen(page, problems, "a new token, shown once");

      const auth = { Authorization: `Bearer ${token}` };
      expect((await request.get("/api/public/v1/sources", { headers: auth })).status()).toBe(200);
      // Only the permissions it was given.
      expect(
        (await request.post("/api/public/v1/sources/prebuilt-rag", { headers: auth, data: { query: "x" } })).status(),
      ).toBe(403);

      const tokens = page.getByRole("table", { name: "API tokens" });
      const row = tokens.getByRole("row", { name: new RegExp(name) });
      await expect(row).toContainText(token.slice(0, 8));
      await expect(row).toContainText("read");
      await expect(row).not.toContainText(token.slice(12, 30)); // the list never shows the secret
      await page.reload();
      await expect(page.getByLabel("New token")).toHaveCount(0); // shown once
      await expect(row).not.toContainText("never"); // last used

      await tokens.getByRole("button", { name: `Revoke ${name}` }).click();
      const revoke = page.getByRole("dialog", { name: `Revoke ${name}?` });
      await expect(revoke).toBeVisible();
      await checkScreen(page, problems, "revoke token dialog");
      await revoke.getByRole("button", { name: "Revoke token" }).click();
      await expect(row).toContainText("revoked");
      expect((await request.get("/api/public/v1/sources", { headers: auth })).status()).toBe(401);
      await checkScreen(page, problems, "API tokens with a revoked token");
    });

    test("the API tokens page shows the MCP endpoint and a client configuration that works with a token", async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      const problems = watchProblems(page);
      await openDefaultProject(page);
      await openProjectLink(page, "API tokens");
      const mcp = page.getByRole("region", { name: "MCP server" });
      await expect(mcp.getByLabel("MCP endpoint")).toHaveText(/^http:\/\/[^ ]+\/api\/mcp$/);
      const config = JSON.parse((await mcp.getByLabel("MCP client configuration").textContent())!);
      const server = config.mcpServers["quarry-default"];
      expect(server).toMatchObject({ type: "http", url: await mcp.getByLabel("MCP endpoint").textContent() });

      const form = page.getByRole("form", { name: "Create token" });
      await form.getByLabel("Name").fill("mcp reader");
      for (const p of ["write", "delete", "deploy"])
        await form.getByRole("checkbox", { name: new RegExp(`^${p}`) }).uncheck();
      await form.getByRole("button", { name: "Create token" }).click();
      const token = (await page.getByLabel("New token").textContent())!.trim();
      // The configuration's header with the new token in it: a read-only token is shown the read tools only.
      const listed = await request.post(server.url, {
        headers: {
          Authorization: server.headers.Authorization.replace(/<[^>]+>/, token),
          Accept: "application/json, text/event-stream",
        },
        data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
      expect(listed.status()).toBe(200);
      const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map(
        (t) => t.name,
      );
      expect(names.sort()).toEqual(["get_build_status", "get_elements", "list_sources"]);
      await checkScreen(page, problems, "MCP server and a read-only token");
    });

    test("a viewer joins by invitation link, reads, and can neither create tokens nor delete sources", async ({
      page,
      browser,
      request,
    }) => {
      // Two browsers, a sign-up, a sign-in and two role changes: more than the default 30 s on 2 shared cores.
      test.setTimeout(180_000);
      const email = `viewer-${viewport.width}-${Date.now()}@e2e.test`;
      const sourceName = `granite-${viewport.width}-${Date.now()}.md`;
      const emailPattern = new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      const problems = watchProblems(page);
      // A source in the default project, through the API token of the first start.
      const upload = await request.post("/api/public/v1/sources/ingest-file", {
        headers: { Authorization: `Bearer ${process.env.E2E_API_TOKEN}` },
        multipart: {
          // A name of this size and run of its own: the other size's (and an earlier run's) upload is in the project.
          file: { name: sourceName, mimeType: "text/markdown", buffer: Buffer.from("# Granite\n\nHard rock.\n") },
        },
      });
      expect(upload.status()).toBe(200);

      // The owner makes a viewer invitation link.
      const link = await createInvitation(page, "viewer");
      expect(link).toMatch(/\/invite\/[\w-]{20,}$/);
      await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText("viewer");
      await checkScreen(page, problems, "members with an invitation");

      // Someone new opens it in their own browser and creates an account.
      const guest = await browser.newContext({ storageState: { cookies: [], origins: [] }, viewport });
      const viewer = await guest.newPage();
      // The viewer's own refused calls below answer 403 on purpose; signed out, the page's last polls may answer 401.
      const viewerProblems = watchProblems(
        viewer,
        (url, status) =>
          (status === 403 && /dashboard\.(tokens\.create|sources\.delete)/.test(url)) ||
          (status === 401 && url.includes("/api/")),
      );
      await viewer.goto(link);
      await expect(viewer.getByRole("heading", { name: "Join Default team" })).toBeVisible();
      await expect(viewer.getByText(/invited as/)).toContainText("viewer");
      await checkScreen(viewer, viewerProblems, "invitation");
      const signUp = viewer.getByRole("form", { name: "Create your account" });
      await signUp.getByLabel("Name").fill("Vera Viewer");
      await signUp.getByLabel("Email").fill(email);
      await signUp.getByLabel("Password").fill("viewer-password-1");
      await signUp.getByRole("button", { name: "Create account and join" }).click();
      await expect(
        viewer.getByRole("region", { name: "Team Default team" }).getByText("Your role: viewer"),
      ).toBeVisible();
      const projectId = await openDefaultProject(viewer);

      // Reads the sources, but is offered no upload, no delete and no API tokens.
      await expect(
        viewer.getByRole("table", { name: "Sources" }).getByRole("link", { name: sourceName }),
      ).toBeVisible();
      await expect(viewer.getByRole("region", { name: "Add sources" })).toHaveCount(0);
      await expect(viewer.getByRole("button", { name: /^Delete / })).toHaveCount(0);
      await checkScreen(viewer, viewerProblems, "sources as a viewer");
      await openMenu(viewer);
      await expect(
        viewer.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Sources" }),
      ).toBeVisible();
      await expect(
        viewer.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API tokens" }),
      ).toHaveCount(0);
      await closeMenu(viewer);
      await viewer.goto(`/${projectId}/settings/api-tokens`);
      await expect(viewer.getByText(/API tokens are managed by the team's admins/)).toBeVisible();
      await checkScreen(viewer, viewerProblems, "API tokens as a viewer");

      // And the server refuses it even when asked directly from the viewer's page.
      const statuses = await viewer.evaluate(async (project) => {
        const call = (path: string, input: unknown) =>
          fetch(`/api/trpc/${path}`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ json: input }),
          }).then((r) => r.status);
        return {
          token: await call("dashboard.tokens.create", { projectId: project, name: "sneaky", permissions: ["read"] }),
          remove: await call("dashboard.sources.delete", { projectId: project, sourceId: crypto.randomUUID() }),
        };
      }, projectId);
      expect(statuses).toEqual({ token: 403, remove: 403 });

      // The link worked once.
      const again = await guest.newPage();
      await again.goto(link);
      await expect(again.getByRole("heading", { name: "This invitation is no longer valid" })).toBeVisible();

      // Sign out (on a phone, from the header's Menu), and back in.
      await openMenu(viewer);
      await viewer.getByRole("button", { name: "Sign out" }).click();
      await expect(viewer).toHaveURL(/\/sign-in$/);
      await viewer.goto(`/${projectId}/sources`);
      await expect(viewer).toHaveURL(/\/sign-in/);
      await viewer.getByLabel("Email").fill(email);
      await viewer.getByLabel("Password").fill("wrong-password");
      await viewer.getByRole("button", { name: "Sign in" }).click();
      await expect(viewer.getByText("Invalid email or password")).toBeVisible();
      await checkScreen(viewer, viewerProblems, "sign-in with a wrong password");
      await viewer.getByLabel("Password").fill("viewer-password-1");
      await viewer.getByRole("button", { name: "Sign in" }).click();
      await expect(viewer.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
      await checkScreen(viewer, viewerProblems, "projects as a viewer");
      await guest.close();

      // The owner sees the new member.
      await page.reload();
      const members = page.getByRole("table", { name: "Members" });
      await expect(members.getByRole("row", { name: emailPattern })).toContainText("viewer");

      // A role change confirms itself (issue 30: it changed in silence), and changes back the same way.
      const toasts = page.getByRole("status", { name: "Notifications" });
      await members.getByLabel(`Role of ${email}`).selectOption("member");
      await expect(toasts).toContainText(`${email} is now member`);
      await checkScreen(page, problems, "members after a role change");
      await members.getByLabel(`Role of ${email}`).selectOption("viewer");
      await expect(toasts).toContainText(`${email} is now viewer`);
      expect(problems).toEqual([]);
    });

    test("unknown addresses get a styled 404", async ({ page }) => {
      // The page itself answers 404 on purpose.
      const problems = watchProblems(page, (url, status) => status === 404 && url.endsWith("/no/such/page"));
      await page.goto("/no/such/page");
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to your projects" })).toBeVisible();
      await checkScreen(page, problems, "page not found");
    });
  });
}
