import { Badge } from "@/components/ui/badge";
import { SafeTable } from "./safe-table";
import type { ElementItem } from "./types";

const ElementBody = ({ element }: { element: ElementItem }) => {
  switch (element.type) {
    case "Title":
      return <p className="text-base font-semibold text-slate-900">{element.text}</p>;
    case "Table":
      return <SafeTable html={element.html} text={element.text} label="Extracted table" />;
    case "CodeSnippet":
    case "Formula":
      return (
        <pre className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap">
          {element.text}
        </pre>
      );
    default:
      return <p className="text-sm leading-relaxed whitespace-pre-wrap text-slate-800">{element.text}</p>;
  }
};

export const ElementCard = ({ element }: { element: ElementItem }) => (
  <li className="grid grid-cols-1 gap-2 px-5 py-4 sm:grid-cols-[10rem_1fr] sm:gap-4">
    <div className="flex flex-wrap items-start gap-2 sm:flex-col sm:gap-1">
      <Badge tone={element.type === "Title" ? "info" : "neutral"}>{element.type}</Badge>
      {element.pageNumber !== null && <span className="text-xs text-slate-500">Page {element.pageNumber}</span>}
    </div>
    <div className="min-w-0">
      <ElementBody element={element} />
    </div>
  </li>
);
