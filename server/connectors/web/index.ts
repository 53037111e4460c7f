import { AppError } from "../../errors";
import type { WebOrigin } from "../origin";
import { writeManifest } from "../snapshot";
import type { Acquired, AcquireContext, Connector } from "../types";
import { crawl, type PageFate } from "./crawl";

/**
 * The web connector (POST /ingest-url): a page, a crawl from a page, or a file URL. A file URL becomes the
 * source's file, parsed exactly like an upload; pages are kept as a snapshot of HTML documents, parsed with
 * main-content extraction.
 */

/** Why a crawl (or a single page) produced nothing, from the start page's fate and the counts. */
const nothingReadable = (url: string, pages: PageFate[], crawled: boolean) => {
  const startFate = pages[0];
  const why = startFate?.reason ? `the page was skipped: ${startFate.reason}` : "no page could be read";
  const skipped = pages.filter((p) => p.status === "skipped").length;
  const more =
    crawled && skipped > 1 ? `; ${skipped} URLs were skipped, each with its reason in the build's pages` : "";
  return new AppError("UNPROCESSABLE", `Nothing could be read from ${url}: ${why}${more}`);
};

export const acquireWeb = async (origin: WebOrigin, ctx: AcquireContext): Promise<Acquired> => {
  const result = await crawl(origin, ctx);
  const report = result.report;
  if (result.kind === "file") {
    return {
      storageKey: result.key,
      fileType: result.fileType,
      fileSize: result.size,
      mimeType: result.mime || null,
      report: { ...report, file: { file_type: result.fileType, bytes: result.size } },
    };
  }
  if (result.documents.length === 0) {
    ctx.report.update(report);
    throw nothingReadable(origin.url, report.pages as PageFate[], origin.crawl);
  }
  const key = await writeManifest(ctx.folder, {
    version: 1,
    buildId: ctx.buildId,
    acquiredAt: new Date().toISOString(),
    documents: result.documents,
  });
  return { storageKey: key, fileType: "html", fileSize: result.bytes, mimeType: "text/html", report };
};

export const webConnector: Connector<"web"> = { kind: "web", acquire: acquireWeb };
