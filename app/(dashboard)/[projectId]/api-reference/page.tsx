import type { Metadata } from "next";
import { ApiReferenceView } from "@/components/api-reference/api-reference-view";

export const metadata: Metadata = { title: "API reference" };

const ApiReferencePage = () => <ApiReferenceView />;

export default ApiReferencePage;
