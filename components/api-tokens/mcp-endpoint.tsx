"use client";

import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";

/** A server name MCP clients accept as a key: the project's name in lowercase letters, digits and dashes. */
const serverName = (projectName: string) =>
  `quarry-${
    projectName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "project"
  }`;

/**
 * The MCP endpoint and a client configuration for this project. The endpoint is the same for every project: the
 * token in the header decides which project a client sees, and its permissions which tools.
 */
export const McpEndpoint = ({ projectName }: { projectName: string }) => {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const url = `${origin}/api/mcp`;
  const config = JSON.stringify(
    {
      mcpServers: {
        [serverName(projectName)]: {
          type: "http",
          url,
          headers: { Authorization: "Bearer <an API token of this project>" },
        },
      },
    },
    null,
    2,
  );
  return (
    <Card label="MCP server">
      <CardHeader
        title="MCP server"
        description="Agents reach this project's sources, and each deployed flow as a tool, over the Model Context Protocol with one of these tokens. A read-only token sees the read tools only."
      />
      <div className="space-y-3 px-5 py-4">
        <div className="flex items-center gap-2">
          <code
            aria-label="MCP endpoint"
            className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1 font-mono text-xs"
          >
            {url}
          </code>
          <CopyButton text={url} label="Copy MCP URL" />
        </div>
        <p className="text-xs text-muted-foreground">
          Client configuration (Cursor, VS Code, Claude Code and other clients of Streamable HTTP):
        </p>
        <pre
          aria-label="MCP client configuration"
          // It scrolls sideways: reachable by keyboard.
          tabIndex={0}
          className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 text-[11px] leading-relaxed text-slate-100"
        >
          {config}
        </pre>
        <CopyButton text={config} label="Copy configuration" />
      </div>
    </Card>
  );
};
