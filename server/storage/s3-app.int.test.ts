import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pdfDoc, textDoc } from "../testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { startS3StandIn, type S3StandIn } from "../testing/s3-stand-in";
import { startWebSite, type WebSite } from "../testing/web-site-server";

/**
 * The app (`npm start`) with STORAGE_DRIVER=s3 against s3rver, over real HTTP: uploads, a fetched web page's
 * snapshot and page images live in the bucket only, and deleting a source removes its objects.
 */

let s3: S3StandIn;
let site: WebSite;
let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  s3 = await startS3StandIn();
  site = await startWebSite({ pdf: await pdfDoc({ pages: 2, title: "Safety manual" }) });
  quarry = await startQuarry({ env: { ...s3.env, QUARRY_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` } });
  api = apiClient(quarry);
});
afterAll(async () => {
  await quarry?.dispose();
  await site?.close();
  await s3?.close();
});

const built = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  const { build_id } = (await res.json()) as { build_id: string };
  const build = (await api.waitForBuild(build_id, 180_000)) as { status: string; error: string | null };
  expect(build.status, build.error ?? "").toBe("Completed");
  const status = (await (await api.get(`/builds/${build_id}?suppress_elements=true`)).json()) as { file_id: string };
  return status.file_id;
};

/** The source's folder in the bucket: `projects/<project>/sources/<source>/`. */
const objectsOf = async (fileId: string) => (await s3.keys()).filter((key) => key.includes(`/sources/${fileId}/`));

it("stores uploads in the bucket, builds them, draws their pages and deletes their objects", async () => {
  const pdfId = await built(await api.upload("report.pdf", await pdfDoc({ pages: 2, title: "Bucket report" })));
  // Past the small-upload size: the durable partition step copies the original out of the bucket to parse it.
  const textId = await built(await api.upload("log.txt", textDoc(1600, "basalt")));
  expect(await objectsOf(pdfId)).toEqual([expect.stringMatching(/\/original\.pdf$/)]);
  expect(await objectsOf(textId)).toEqual([expect.stringMatching(/\/original\.txt$/)]);
  // Nothing of it on the app's disk.
  expect(existsSync(path.join(quarry.dataDir, "files"))).toBe(false);

  const elements = (await (await api.get(`/get-elements?file_id=${textId}`)).json()) as { items: { text: string }[] };
  expect(elements.items.map((e) => e.text).join(" ")).toContain("basalt");

  const shot = await api.get(`/${pdfId}/pages/2/screenshot`);
  expect(shot.status).toBe(200);
  expect(await shot.json()).toMatchObject({ page_number: 2, mime_type: "image/png", width: 900 });

  for (const fileId of [pdfId, textId]) {
    expect((await api.del({ file_id: fileId })).status).toBe(200);
    expect(await objectsOf(fileId)).toEqual([]);
  }
});

it("keeps a fetched page's snapshot in the bucket and removes it with the source", async () => {
  const fileId = await built(await api.post("/ingest-url", { url: `${site.origin}/docs/about.html` }));
  const objects = await objectsOf(fileId);
  expect(objects).toContainEqual(expect.stringMatching(/\/snapshot-[0-9a-f-]{36}\/manifest\.json$/));
  expect((await api.del({ file_id: fileId })).status).toBe(200);
  expect(await objectsOf(fileId)).toEqual([]);
});

it("refuses to start when the bucket cannot be used, saying why", async () => {
  const error = await startQuarry({ env: { ...s3.env, S3_BUCKET: "no-such-bucket" } }).catch((e: unknown) => e);
  expect(String(error)).toContain(
    `Quarry could not start: STORAGE_DRIVER=s3: the bucket "no-such-bucket" at ${s3.endpoint} cannot be used: ` +
      "the bucket does not exist",
  );
});
