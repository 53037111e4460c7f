import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import * as tar from "tar-stream";

/**
 * GitHub's REST API and codeload as the GitHub connector meets them, on two origins as in real life:
 * `GET /repos/{owner}/{repo}` (metadata, or GitHub's 404 for a missing or private repository),
 * `GET /repos/{owner}/{repo}/tarball/{ref}` answering 302 to codeload, codeload serving a real gzipped tarball whose
 * top folder is `owner-repo-<sha>`, and the 403 GitHub sends when the rate limit is spent. Requests are recorded
 * with the server that got them and their Authorization header.
 */

export type RepoFile = { path: string; content: string | Buffer } | { path: string; symlinkTo: string };

export type StandInRepo = {
  defaultBranch: string;
  branches: string[];
  private?: boolean;
  files: RepoFile[];
  sha: string;
};

export type GithubStandIn = {
  /** The API's base URL (GITHUB_API_BASE_URL). */
  origin: string;
  port: number;
  codeloadOrigin: string;
  codeloadPort: number;
  requests: { server: "api" | "codeload"; path: string; authorization: string | null }[];
  close: () => Promise<void>;
};

/** A gzipped tarball laid out the way GitHub builds them. */
export const buildTarball = async (topFolder: string, files: RepoFile[]): Promise<Buffer> => {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  pack.entry({ name: `${topFolder}/`, type: "directory" });
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      if (!folders.has(folder)) {
        folders.add(folder);
        pack.entry({ name: `${topFolder}/${folder}/`, type: "directory" });
      }
    }
    if ("symlinkTo" in file)
      pack.entry({ name: `${topFolder}/${file.path}`, type: "symlink", linkname: file.symlinkTo });
    else
      pack.entry(
        { name: `${topFolder}/${file.path}` },
        typeof file.content === "string" ? Buffer.from(file.content) : file.content,
      );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
};

const NOT_FOUND = {
  message: "Not Found",
  documentation_url: "https://docs.github.com/rest/repos/repos#get-a-repository",
  status: "404",
};

/** The stand-in's repositories and what it has been asked; the origins are known once both servers listen. */
type Site = {
  repos: Record<string, StandInRepo>;
  tarballs: Map<string, Buffer>;
  requests: GithubStandIn["requests"];
  origin: string;
  codeloadOrigin: string;
};

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res
    .writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "57",
      "x-ratelimit-reset": "1893456000",
      ...headers,
    })
    .end(JSON.stringify(body));

const rateLimited = (res: ServerResponse) =>
  json(
    res,
    403,
    {
      message:
        "API rate limit exceeded for 203.0.113.9. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
      documentation_url: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
    },
    { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1893456000" },
  );

/** `GET /repos/{owner}/{repo}` and `…/tarball/{ref}`, the latter a redirect to codeload. */
const serveRepo = (site: Site, req: IncomingMessage, res: ServerResponse, path: string, match: RegExpExecArray) => {
  const [, owner, name, ref] = match;
  if (owner === "rate-limited") return rateLimited(res);
  const slug = `${owner}/${name}`;
  const repo = site.repos[slug];
  // GitHub answers a private repository exactly like a missing one unless the token may see it.
  if (!repo || (repo.private && !req.headers.authorization)) return json(res, 404, NOT_FOUND);
  if (!path.includes("/tarball")) {
    return json(res, 200, {
      full_name: slug,
      private: repo.private === true,
      default_branch: repo.defaultBranch,
      html_url: `https://github.com/${slug}`,
    });
  }
  const branch = ref ?? repo.defaultBranch;
  if (!repo.branches.includes(branch))
    return json(res, 404, {
      ...NOT_FOUND,
      documentation_url: "https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar",
    });
  return res
    .writeHead(302, { location: `${site.codeloadOrigin}/${owner}/${name}/legacy.tar.gz/refs/heads/${branch}` })
    .end();
};

const handleApi = (site: Site, req: IncomingMessage, res: ServerResponse) => {
  const path = decodeURIComponent(new URL(req.url ?? "/", site.origin).pathname);
  site.requests.push({ server: "api", path, authorization: req.headers.authorization ?? null });
  const api = /^\/repos\/([^/]+)\/([^/]+)(?:\/tarball(?:\/(.+))?)?$/.exec(path);
  if (api) return serveRepo(site, req, res, path, api);
  return json(res, 404, NOT_FOUND);
};

const handleCodeload = (site: Site, req: IncomingMessage, res: ServerResponse) => {
  const path = decodeURIComponent(new URL(req.url ?? "/", site.codeloadOrigin).pathname);
  site.requests.push({ server: "codeload", path, authorization: req.headers.authorization ?? null });
  const codeload = /^\/([^/]+)\/([^/]+)\/legacy\.tar\.gz\/refs\/heads\/(.+)$/.exec(path);
  if (codeload) {
    const tarball = site.tarballs.get(`${codeload[1]}/${codeload[2]}`);
    if (!tarball) return res.writeHead(404).end("404: Not Found");
    return res
      .writeHead(200, {
        "content-type": "application/x-gzip",
        "content-disposition": `attachment; filename=${codeload[1]}-${codeload[2]}.tar.gz`,
        "content-length": String(tarball.length),
      })
      .end(tarball);
  }
  return res.writeHead(404).end("404: Not Found");
};

const listen = (server: Server, wanted: number) =>
  new Promise<number>((resolve) =>
    server.listen(wanted, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export const startGithubStandIn = async (
  repos: Record<string, StandInRepo>,
  /** Ports of the API and of codeload; 0 picks free ones. */
  ports: { api: number; codeload: number } = { api: 0, codeload: 0 },
): Promise<GithubStandIn> => {
  const tarballs = new Map<string, Buffer>();
  for (const [slug, repo] of Object.entries(repos)) {
    tarballs.set(slug, await buildTarball(`${slug.replace("/", "-")}-${repo.sha.slice(0, 7)}`, repo.files));
  }
  const site: Site = { repos, tarballs, requests: [], origin: "", codeloadOrigin: "" };
  const apiServer = createServer((req, res) => handleApi(site, req, res));
  const codeloadServer = createServer((req, res) => handleCodeload(site, req, res));
  const port = await listen(apiServer, ports.api);
  const codeloadPort = await listen(codeloadServer, ports.codeload);
  site.origin = `http://127.0.0.1:${port}`;
  site.codeloadOrigin = `http://127.0.0.1:${codeloadPort}`;
  return {
    origin: site.origin,
    port,
    codeloadOrigin: site.codeloadOrigin,
    codeloadPort,
    requests: site.requests,
    close: async () => {
      await close(apiServer);
      await close(codeloadServer);
    },
  };
};
