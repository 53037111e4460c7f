import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocx, wPara } from "../parsing/office/test-fixtures";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * What the dashboard's procedures say about failed builds, over real HTTP: every role reads the sentence for users
 * (`failure`), only admins the stored reason (`error`); the public API keeps its `error` as the contract says. And
 * a Word page image on a server without LibreOffice (QUARRY_SOFFICE_PATH pointing nowhere) is refused with a reason,
 * its LibreOffice detail for admins only, and the element viewer knows it before asking for the image.
 */

const OWNER = { email: "owner@failures.test", password: "owner-password-1" };
const PASSWORD = "viewer-password-1";

type Build = { status: string; error: string | null; failure: string | null };
type Row = { id: string; fileName: string; build: Build | null };

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let viewer: Session;
let projectId: string;
const fileIds: Record<string, string> = {};

const built = async (res: Response) => {
  expect(res.status).toBe(200);
  const { build_id } = (await res.json()) as { build_id: string };
  const status = (await apiClient(quarry).waitForBuild(build_id, 180_000)) as {
    status: string;
    error: string | null;
    file_id: string;
  };
  return { ...status, fileId: status.file_id };
};

beforeAll(async () => {
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      QUARRY_SOFFICE_PATH: "/nonexistent/soffice",
    },
  });
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  projectId = me.teams[0]!.projects[0]!.id;
  const { path } = await client.ok<{ path: string }>(
    owner,
    "dashboard.teams.invite",
    { teamId: me.teams[0]!.id, role: "viewer" },
    "mutation",
  );
  viewer = await client.signUp({ name: "v", email: "viewer@failures.test", password: PASSWORD }, path.split("/").pop());

  const api = apiClient(quarry);
  const url = await built(await api.post("/ingest-url", { url: "http://quarry-no-such-host.invalid/" }));
  expect(url).toMatchObject({ status: "Processing failed", error: expect.stringMatching(/not found|EAI_AGAIN/) });
  fileIds.url = url.fileId;
  const pdf = await built(await api.upload("broken.pdf", "this is not a PDF at all"));
  expect(pdf.status).toBe("Processing failed");
  fileIds.pdf = pdf.fileId;
  const docx = await built(
    await api.upload("memo.docx", Buffer.from(await buildDocx({ body: wPara("A memo about granite.") }))),
  );
  expect(docx.status).toBe("Completed");
  fileIds.docx = docx.fileId;
}, 600_000);

afterAll(async () => {
  await quarry?.dispose();
});

const list = (session: Session) =>
  client.ok<{ items: Row[] }>(session, "dashboard.sources.list", { projectId }, "query").then((p) => p.items);

describe("failed builds in the dashboard", () => {
  it("gives everyone the sentence and only admins the stored reason", async () => {
    const byId = (rows: Row[], id: string) => rows.find((r) => r.id === id)!.build!;
    const asOwner = await list(owner);
    expect(byId(asOwner, fileIds.url!)).toMatchObject({
      status: "Processing failed",
      failure: expect.stringMatching(/^The web address could not be reached/),
      error: expect.stringMatching(/Could not fetch|Nothing could be read/),
    });
    expect(byId(asOwner, fileIds.pdf!)).toMatchObject({
      failure: expect.stringMatching(/^The file could not be read/),
      error: expect.stringMatching(/PDF/),
    });
    expect(byId(asOwner, fileIds.docx!)).toMatchObject({ status: "Completed", failure: null });

    const asViewer = await list(viewer);
    expect(byId(asViewer, fileIds.url!)).toMatchObject({ failure: byId(asOwner, fileIds.url!).failure, error: null });
    expect(JSON.stringify(asViewer)).not.toMatch(/ENOTFOUND|EAI_AGAIN|Could not fetch/);

    const history = (session: Session) =>
      client.ok<Build[]>(session, "dashboard.sources.builds", { projectId, sourceId: fileIds.pdf }, "query");
    expect((await history(owner))[0]).toMatchObject({ failure: expect.any(String), error: expect.any(String) });
    expect((await history(viewer))[0]).toMatchObject({ failure: expect.any(String), error: null });
  });

  it("keeps the public API's error as the contract has it", async () => {
    const [source] = (await (await apiClient(quarry).get(`?file_ids=${fileIds.url}`)).json()) as Record<
      string,
      unknown
    >[];
    expect(source).not.toHaveProperty("failure");
  });
});

describe("the page image of a Word file without LibreOffice", () => {
  const image = (session: Session) =>
    fetch(`${quarry.url}/api/projects/${projectId}/sources/${fileIds.docx}/pages/1/image`, {
      headers: { cookie: session.cookie },
    });

  it("is refused with a reason: LibreOffice named for admins, a plain sentence for others", async () => {
    const asOwner = await image(owner);
    expect(asOwner.status).toBe(503);
    const ownerBody = (await asOwner.json()) as { detail: string; reason?: string };
    expect(ownerBody.detail).toMatch(/^Page images cannot be shown for this file/);
    expect(ownerBody.reason).toMatch(/^Page images of Word files need LibreOffice on the server/);

    const asViewer = await image(viewer);
    expect(asViewer.status).toBe(503);
    const viewerBody = (await asViewer.json()) as Record<string, unknown>;
    expect(viewerBody).toEqual({ detail: ownerBody.detail });
  });

  it("is known to the element viewer before any image is asked for, so the page never requests one", async () => {
    type Elements = {
      hasPageImages: boolean;
      pageImagesRefused: { message: string; detail: string | null } | null;
      total: number;
    };
    const elements = (session: Session, sourceId: string) =>
      client.ok<Elements>(session, "dashboard.sources.elements", { projectId, sourceId, page: 1 }, "query");
    const asOwner = await elements(owner, fileIds.docx!);
    expect(asOwner.hasPageImages).toBe(false);
    expect(asOwner.total).toBeGreaterThan(0);
    expect(asOwner.pageImagesRefused).toEqual({
      message: expect.stringMatching(/^Page images cannot be shown for this file/),
      detail: expect.stringMatching(/^Page images of Word files need LibreOffice on the server/),
    });
    const asViewer = await elements(viewer, fileIds.docx!);
    expect(asViewer.pageImagesRefused).toEqual({ message: asOwner.pageImagesRefused!.message, detail: null });
    // A PDF needs no LibreOffice: nothing refused (it failed to build, so it has no elements either).
    const pdf = await elements(owner, fileIds.pdf!);
    expect(pdf).toMatchObject({ hasPageImages: true, pageImagesRefused: null });
  });
});
