import { expect, test, type Browser, type Page } from "@playwright/test";
import JSZip from "jszip";
import { dashboardClient, type Session } from "../../server/testing/dashboard-client";
import { pdfDoc, textDoc } from "../../server/testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../../server/testing/quarry-process";
import { JOURNEY_SIZES, checkScreen } from "../helpers/screen";
import { watchProblems } from "../helpers/layout";

/**
 * Issue 30's walk on a server that genuinely lacks LibreOffice and ffmpeg (QUARRY_SOFFICE_PATH, QUARRY_FFMPEG_PATH and
 * QUARRY_FFPROBE_PATH, the knobs the server finds its tools by, point nowhere) and cannot reach the web (a host
 * that does not resolve): failed sources beside built ones, as owner, member and viewer, at a laptop's and a phone's
 * size. Everyone reads sentences; only the admin opens the operator's reason behind "Details". The shared e2e server
 * has every tool, so this spec starts a Quarry of its own (the same build) and stops it at the end.
 */

const OWNER = { email: "owner@missing-tools.test", password: "owner-password-1" };
const PASSWORD = "member-password-1";
const ROLES = ["owner", "member", "viewer"] as const;
type Role = (typeof ROLES)[number];

/** What the operator's reason says and only an admin may read. */
const OPERATOR_TEXT =
  /ENOTFOUND|EAI_AGAIN|apt-get|soffice|ffmpeg|ffprobe|QUARRY_[A-Z_]+|SPEECH_BASE_URL|Could not fetch|\bat \S+ \(\S+:\d+:\d+\)/;

const FILES = {
  doc: "minutes.doc",
  docx: "memo.docx",
  mp3: "interview.mp3",
  mp4: "site-visit.mp4",
  pdf: "report.pdf",
  txt: "notes.txt",
} as const;
const HOST = "quarry-unreachable.invalid";

const TOOL_SENTENCE = "This kind of file needs a program that is not installed on the server.";
const HOST_SENTENCE = "The web address could not be reached: no site by that name was found.";

let quarry: QuarryProcess;
let projectId: string;
const sessions = {} as Record<Role, Session>;
const sourceIds = {} as Record<keyof typeof FILES | "url", string>;

/** An MP3 and an MP4 as their first bytes say (an ID3 tag and an MPEG frame; an `ftyp` box): ffprobe would read on. */
const MP3 = Buffer.concat([Buffer.from("ID3\x03\x00\x00\x00\x00\x00\x00", "latin1"), Buffer.alloc(417, 0xff)]);
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from("ftypmp42\x00\x00\x00\x00mp42isom", "latin1"),
  Buffer.alloc(64),
]);
/** A two-page Word file (a page break between two paragraphs): it builds without LibreOffice, its page images do not. */
const docx = async () => {
  const zip = new JSZip();
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  zip.file(
    "[Content_Types].xml",
    `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  );
  zip.file(
    "_rels/.rels",
    `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    "word/document.xml",
    `${head}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>A memo about the granite face.</w:t></w:r></w:p><w:p><w:r><w:br w:type="page"/></w:r><w:r><w:t>The blasting schedule.</w:t></w:r></w:p></w:body></w:document>`,
  );
  return zip.generateAsync({ type: "nodebuffer" });
};

/** A legacy Word file's OLE signature: only LibreOffice turns it into something readable. */
const DOC = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);

test.describe.configure({ mode: "serial" });
test.skip(
  !!process.env.E2E_BASE_URL,
  "starts a Quarry of its own from this checkout, not beside an outside deployment",
);

test.beforeAll(async () => {
  test.setTimeout(600_000);
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      QUARRY_SOFFICE_PATH: "/nonexistent/soffice",
      QUARRY_FFMPEG_PATH: "/nonexistent/ffmpeg",
      QUARRY_FFPROBE_PATH: "/nonexistent/ffprobe",
      QUARRY_AUTH_ATTEMPTS_PER_MINUTE: "1000",
    },
  });
  const client = dashboardClient(quarry.url);
  sessions.owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.ok<{ teams: { id: string; projects: { id: string }[] }[] }>(
    sessions.owner,
    "dashboard.account.me",
    undefined,
    "query",
  );
  const team = me.teams[0]!;
  projectId = team.projects[0]!.id;
  for (const role of ["member", "viewer"] as const) {
    const { path } = await client.ok<{ path: string }>(
      sessions.owner,
      "dashboard.teams.invite",
      { teamId: team.id, role },
      "mutation",
    );
    sessions[role] = await client.signUp(
      {
        name: `${role[0]!.toUpperCase()}${role.slice(1)} User`,
        email: `${role}@missing-tools.test`,
        password: PASSWORD,
      },
      path.split("/").pop(),
    );
  }

  const api = apiClient(quarry);
  const ingest = async (res: Response, expected: "Completed" | "Processing failed") => {
    expect(res.status).toBe(200);
    const { build_id } = (await res.json()) as { build_id: string };
    // Builds run on this machine's shared cores: a generous deadline, never a fixed wait.
    const build = (await api.waitForBuild(build_id, 240_000)) as { status: string; file_id: string; error: string };
    expect(build.status, build.error).toBe(expected);
    return build.file_id;
  };
  sourceIds.url = await ingest(await api.post("/ingest-url", { url: `http://${HOST}/` }), "Processing failed");
  sourceIds.doc = await ingest(await api.upload(FILES.doc, DOC), "Processing failed");
  sourceIds.mp3 = await ingest(await api.upload(FILES.mp3, MP3), "Processing failed");
  sourceIds.mp4 = await ingest(await api.upload(FILES.mp4, MP4), "Processing failed");
  sourceIds.docx = await ingest(await api.upload(FILES.docx, await docx()), "Completed");
  sourceIds.pdf = await ingest(await api.upload(FILES.pdf, await pdfDoc({ pages: 2 })), "Completed");
  sourceIds.txt = await ingest(await api.upload(FILES.txt, textDoc(3)), "Completed");
});

test.afterAll(async () => {
  await quarry?.dispose();
});

/** A browser of `role`'s own at `size`, signed in with the session made over HTTP. */
const signedIn = async (browser: Browser, role: Role, size: { width: number; height: number }) => {
  const context = await browser.newContext({
    baseURL: quarry.url,
    viewport: size,
    storageState: { cookies: [], origins: [] },
  });
  await context.addCookies(
    sessions[role].cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: quarry.url };
    }),
  );
  return context.newPage();
};

/** Everything the page says to a reader: its text (open or folded), titles and accessible names. */
const pageText = (page: Page) =>
  page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const el of Array.from(body.querySelectorAll("script, style, template"))) el.remove();
    const attributes = Array.from(document.querySelectorAll("[title], [aria-label], [alt], [placeholder]")).flatMap(
      (el) => ["title", "aria-label", "alt", "placeholder"].map((a) => el.getAttribute(a) ?? ""),
    );
    return [body.textContent ?? "", ...attributes].join("\n");
  });

const rowOf = (page: Page, name: string) =>
  page.getByRole("table", { name: "Sources" }).getByRole("row", { name: new RegExp(name.replace(/\./g, "\\.")) });

for (const size of JOURNEY_SIZES) {
  for (const role of ROLES) {
    test(`${role} at ${size.width}×${size.height}: failed sources in words, the operator's reason for admins only`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const admin = role === "owner";
      const page = await signedIn(browser, role, size);
      const problems = watchProblems(page);
      const imageRequests: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes(`/sources/${sourceIds.docx}/pages/`)) imageRequests.push(r.url());
      });
      const noOperatorText = async (screen: string) => {
        if (!admin) expect(await pageText(page), `${screen}: operator text for a ${role}`).not.toMatch(OPERATOR_TEXT);
      };

      // The sources list: what failed and why, beside what was built, and what this server cannot do.
      await page.goto(`/${projectId}/sources`);
      const table = page.getByRole("table", { name: "Sources" });
      for (const name of [FILES.pdf, FILES.txt, FILES.docx])
        await expect(rowOf(page, name).getByText(/^Done/)).toBeVisible({ timeout: 30_000 });
      for (const name of [FILES.doc, FILES.mp3, FILES.mp4])
        await expect(rowOf(page, name).getByText(TOOL_SENTENCE, { exact: false })).toBeVisible();
      await expect(rowOf(page, HOST).getByText(HOST_SENTENCE, { exact: false })).toBeVisible();
      const notice = page.getByText(/^This server cannot /);
      await expect(notice).toBeVisible();
      await expect(notice).toContainText("read audio and video");
      if (admin) {
        await expect(page.getByText(/^apt-get install .*ffmpeg/)).toBeVisible();
        await expect(table.getByText("Details", { exact: true })).toHaveCount(4);
      } else {
        await expect(notice).toContainText("whoever runs the server installs what they need");
        await expect(table.getByText("Details", { exact: true })).toHaveCount(0);
      }
      await checkScreen(page, problems, `${role}: sources`);
      await noOperatorText("sources");
      if (admin) {
        const urlRow = rowOf(page, HOST);
        await urlRow.getByText("Details", { exact: true }).click();
        await expect(urlRow.getByText(/Could not fetch|Nothing could be read/)).toBeVisible();
        const mp3Row = rowOf(page, FILES.mp3);
        await mp3Row.getByText("Details", { exact: true }).click();
        await expect(mp3Row.getByText(/apt-get install ffmpeg/)).toBeVisible();
        await checkScreen(page, problems, `${role}: sources with details open`);
      }

      // Each failed source's page: the same sentence in its build history.
      for (const [key, sentence] of [
        ["doc", TOOL_SENTENCE],
        ["mp3", TOOL_SENTENCE],
        ["mp4", TOOL_SENTENCE],
        ["url", HOST_SENTENCE],
      ] as const) {
        await page.goto(`/${projectId}/sources/${sourceIds[key]}`);
        const history = page.getByRole("region", { name: "Build history" });
        await expect(history.getByText(sentence, { exact: false })).toBeVisible({ timeout: 30_000 });
        await expect(history.getByText("Details", { exact: true })).toHaveCount(admin ? 1 : 0);
        if (admin) {
          await history.getByText("Details", { exact: true }).click();
          await expect(
            history.getByText(key === "url" ? /Could not fetch|Nothing could be read/ : /apt-get/),
          ).toBeVisible();
        }
        await checkScreen(page, problems, `${role}: ${key} source`);
        await noOperatorText(`${key} source`);
      }

      // The Word source built, but its page image needs LibreOffice: a sentence instead of a request bound to fail.
      await page.goto(`/${projectId}/sources/${sourceIds.docx}`);
      await expect(page.getByRole("region", { name: "Build history" }).getByText("Completed")).toBeVisible({
        timeout: 30_000,
      });
      const refusal = page.getByRole("status").filter({ hasText: /page image/i });
      // Said the same at both sizes: beside the list on a laptop, above it on a phone.
      await expect(refusal).toContainText("Page images cannot be shown for this file on this server.");
      await expect(page.getByRole("list", { name: "Elements" })).toContainText("A memo about the granite face.");
      await expect(refusal.getByText("Details", { exact: true })).toHaveCount(admin ? 1 : 0);
      if (admin) {
        await refusal.getByText("Details", { exact: true }).click();
        await expect(refusal.getByText(/LibreOffice|soffice/).first()).toBeVisible();
      }
      await checkScreen(page, problems, `${role}: docx source`);
      await noOperatorText("docx source");
      expect(imageRequests, "page images requested although the server said it cannot draw them").toEqual([]);

      await page.context().close();
    });
  }
}
