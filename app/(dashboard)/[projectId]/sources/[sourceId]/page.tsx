import type { Metadata } from "next";
import { CrawlPages } from "@/components/sources/crawl-pages";
import { SourceElements } from "@/components/sources/source-elements";

export const metadata: Metadata = { title: "Source" };

const SourcePage = async ({ params }: { params: Promise<{ projectId: string; sourceId: string }> }) => {
  const { projectId, sourceId } = await params;
  return (
    <div className="space-y-6">
      <SourceElements projectId={projectId} sourceId={sourceId} />
      <CrawlPages projectId={projectId} sourceId={sourceId} />
    </div>
  );
};

export default SourcePage;
