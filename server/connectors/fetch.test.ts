import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { RefusedDestinationError } from "./destination";
import { createFetcher, fetcher } from "./fetch";

/**
 * The guarded fetcher against real sockets. The hostile matrix runs with the default settings (no allow list): a
 * victim server on loopback counts every request that reaches it, and must count none. Cases that need a name to
 * resolve somewhere (rebinding, names of private addresses) use an injected resolver instead of a DNS server.
 */

let victim: Server;
let victimPort = 0;
let hits = 0;

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );

beforeAll(async () => {
  victim = createServer((_req, res) => {
    hits++;
    res.end("secret");
  });
  victimPort = await listen(victim);
});
afterAll(() => victim.close());

/** Names a test resolver knows: rebinding flips from public to loopback after the first answer. */
const resolverCalls = new Map<string, number>();
const testResolver = async (host: string): Promise<string[]> => {
  const n = resolverCalls.get(host) ?? 0;
  resolverCalls.set(host, n + 1);
  switch (host) {
    case "rebind.test":
      return n === 0 ? ["93.184.216.34"] : ["127.0.0.1"];
    case "private.test":
      return ["10.1.2.3"];
    case "mixed.test":
      return ["93.184.216.34", "127.0.0.1"];
    case "metadata.google.internal":
      return ["169.254.169.254"];
    case "mapped.test":
      return ["::ffff:127.0.0.1"];
    case "nat64.test":
      return ["64:ff9b::a9fe:a9fe"];
    case "ula.test":
      return ["fd00:ec2::254"];
    default:
      throw Object.assign(new Error(`${host} not found`), { code: "ENOTFOUND" });
  }
};

const hostileUrls = (port: number) => [
  // Loopback in every notation the WHATWG parser accepts.
  `http://127.0.0.1:${port}/`,
  `http://localhost:${port}/`,
  `http://LOCALHOST:${port}/`,
  `http://app.localhost:${port}/`,
  `http://127.1:${port}/`,
  `http://127.0.1:${port}/`,
  `http://0177.0.0.1:${port}/`,
  `http://0x7f.0.0.1:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://2130706433:${port}/`,
  `http://017700000001:${port}/`,
  `http://127.255.255.254:${port}/`,
  `http://[::1]:${port}/`,
  `http://[0:0:0:0:0:0:0:1]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::ffff:7f00:1]:${port}/`,
  `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
  // Unspecified addresses reach loopback on Linux.
  `http://0.0.0.0:${port}/`,
  `http://0:${port}/`,
  `http://[::]:${port}/`,
  // Private networks.
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://[fc00::1]/",
  "http://[fd12:3456::1]/",
  // Cloud metadata (link-local, CGNAT, IPv6 ULA) and the name GCP gives it.
  "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "http://[::ffff:169.254.169.254]/",
  "http://0xa9fea9fe/",
  "http://2852039166/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://100.100.100.200/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://[fe80::1]/",
  // CGNAT, benchmark, documentation, reserved, broadcast, multicast.
  "http://100.64.0.1/",
  "http://198.18.0.1/",
  "http://192.0.2.10/",
  "http://192.0.0.192/",
  "http://240.0.0.1/",
  "http://255.255.255.255/",
  "http://224.0.0.1/",
  "http://[ff02::1]/",
  // NAT64, 6to4 and Teredo wrappers of private IPv4.
  "http://[64:ff9b::7f00:1]/",
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://[2002:7f00:1::]/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
  // Other schemes.
  "file:///etc/passwd",
  "ftp://example.com/file.txt",
  `gopher://127.0.0.1:${port}/_PING`,
  "data:text/html,<h1>hi</h1>",
  "javascript:alert(1)",
  `ws://127.0.0.1:${port}/`,
  // Credentials in the URL (and the classic "public host @ private host" disguise).
  `http://example.com@127.0.0.1:${port}/`,
  "http://user:pass@example.com/",
  // Names that resolve to private addresses, and DNS rebinding (public for the check, loopback for the connection).
  `http://private.test:${port}/`,
  `http://mixed.test:${port}/`,
  `http://mapped.test:${port}/`,
  `http://nat64.test:${port}/`,
  `http://ula.test:${port}/`,
  `http://rebind.test:${port}/`,
];

describe("the hostile URL matrix (default settings: no allow list)", () => {
  it("refuses every case and lets nothing reach the victim server", async () => {
    const guarded = createFetcher({ resolver: testResolver });
    const urls = hostileUrls(victimPort);
    expect(urls.length).toBeGreaterThanOrEqual(40);
    const outcomes: string[] = [];
    for (const url of urls) {
      const error = await guarded.fetchBytes(url, { timeoutMs: 5000 }).then(
        () => null,
        (e: unknown) => e,
      );
      outcomes.push(`${url} → ${error instanceof Error ? error.message : "FETCHED"}`);
      expect(error, url).toBeInstanceOf(AppError);
      expect((error as AppError).status, `${url}: ${(error as Error).message}`).toBe(400);
    }
    expect(hits).toBe(0);
    // Rebinding was refused at the socket: the check saw the public address, the connection went to loopback.
    expect(resolverCalls.get("rebind.test")).toBeGreaterThanOrEqual(2);
    expect(outcomes.find((o) => o.includes("rebind.test"))).toMatch(/127\.0\.0\.1, which is a loopback address/);
  });

  it("names the reason in the refusal", async () => {
    const guarded = createFetcher({ resolver: testResolver });
    const reason = async (url: string) => (await guarded.check(url).catch((e: Error) => e)) as Error;
    expect((await reason("http://169.254.169.254/")).message).toBe(
      "Refused to fetch http://169.254.169.254/: 169.254.169.254 is a link-local address (where cloud metadata services live); only public addresses are fetched",
    );
    expect((await reason("http://2130706433/")).message).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect((await reason("http://100.64.1.1/")).message).toMatch(/carrier-grade NAT/);
    expect((await reason("http://[64:ff9b::a9fe:a9fe]/")).message).toMatch(/NAT64/);
    expect((await reason("http://private.test/")).message).toMatch(
      /private\.test resolves to 10\.1\.2\.3, which is a private address/,
    );
    expect((await reason("file:///etc/passwd")).message).toMatch(/the file scheme is not allowed/);
    expect(await reason("http://93.184.216.34/")).toBeInstanceOf(URL);
  });

  it("the deployment's fetcher refuses loopback when QUARRY_FETCH_ALLOW_HOSTS is unset", async () => {
    expect(process.env.QUARRY_FETCH_ALLOW_HOSTS ?? "").toBe("");
    const error = await fetcher()
      .fetchBytes(`http://127.0.0.1:${victimPort}/`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedDestinationError);
    expect(hits).toBe(0);
  });
});

describe("redirects", () => {
  let redirector: Server;
  let port = 0;
  beforeAll(async () => {
    redirector = createServer((req, res) => {
      const to = new URL(req.url!, "http://x").searchParams.get("to");
      if (req.url?.startsWith("/chain/")) {
        const n = Number(req.url.split("/")[2]);
        res.writeHead(302, { location: n > 0 ? `/chain/${n - 1}` : "/final" }).end();
      } else if (to) res.writeHead(302, { location: to }).end();
      else if (req.url === "/final") res.end(`final auth=${req.headers.authorization ?? "none"}`);
      else res.end("ok");
    });
    port = await listen(redirector);
  });
  afterAll(() => redirector.close());

  // Only the redirector may be reached (it lives on loopback); where it points is what is checked.
  const allowRedirector = () => createFetcher({ allowHosts: new Set([`127.0.0.1:${port}`]), resolver: testResolver });

  it.each([
    ["a loopback port other than the allowed one", () => `http://127.0.0.1:${victimPort}/`],
    ["localhost", () => `http://localhost:${port}/final`],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
    ["an IPv4-mapped IPv6 loopback", () => `http://[::ffff:127.0.0.1]:${victimPort}/`],
    ["a decimal loopback", () => `http://2130706433:${victimPort}/`],
    ["a name that rebinds", () => `http://rebind.test:${victimPort}/`],
    ["another scheme", () => "file:///etc/passwd"],
  ])("re-checks every hop: a redirect to %s is refused", async (_name, target) => {
    resolverCalls.delete("rebind.test");
    const error = await allowRedirector()
      .fetchBytes(`http://127.0.0.1:${port}/go?to=${encodeURIComponent(target())}`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedDestinationError);
    expect((error as Error).message).toMatch(/it redirects to/);
    expect(hits).toBe(0);
  });

  it("follows up to 5 redirects and refuses the 6th", async () => {
    const ok = await allowRedirector().fetchBytes(`http://127.0.0.1:${port}/chain/4`);
    expect(ok.bytes.toString()).toBe("final auth=none");
    expect(ok.hops).toHaveLength(6);
    const error = await allowRedirector()
      .fetchBytes(`http://127.0.0.1:${port}/chain/5`)
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/more than 5 redirects/);
  });

  it("keeps credentials on the same origin only", async () => {
    const same = await allowRedirector().fetchBytes(`http://127.0.0.1:${port}/chain/0`, {
      headers: { Authorization: "Bearer t0ken" },
    });
    expect(same.bytes.toString()).toBe("final auth=Bearer t0ken");
  });
});

describe("limits", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/big-declared") res.writeHead(200, { "content-length": String(2 * 1024 * 1024) }).end();
      else if (req.url === "/big-streamed") {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 97);
        let sent = 0;
        const pump = () => {
          while (sent < 40 && res.write(chunk)) sent++;
          if (sent >= 40) res.end();
          else res.once("drain", pump);
        };
        pump();
      } else if (req.url === "/slow-headers") setTimeout(() => res.end("late"), 3000);
      else if (req.url === "/stalls") {
        res.writeHead(200);
        res.write("start");
      } else res.end("ok");
    });
    port = await listen(server);
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const local = () => createFetcher({ allowHosts: new Set([`127.0.0.1:${port}`]), readTimeoutMs: 500 });

  it("refuses a declared size over the cap before reading, with the contract's 413 text", async () => {
    const error = (await local()
      .fetchBytes(`http://127.0.0.1:${port}/big-declared`, { maxBytes: 1024 * 1024 })
      .catch((e: unknown) => e)) as AppError;
    expect(error.status).toBe(413);
    expect(error.message).toBe("File exceeds the maximum size of 1 MB");
  });

  it("stops a stream that grows past the cap", async () => {
    const error = (await local()
      .fetchBytes(`http://127.0.0.1:${port}/big-streamed`, { maxBytes: 1024 * 1024 })
      .catch((e: unknown) => e)) as AppError;
    expect(error.status).toBe(413);
  });

  it("gives up on a server that does not answer, or stops sending", async () => {
    const slow = (await local()
      .fetchBytes(`http://127.0.0.1:${port}/slow-headers`)
      .catch((e: unknown) => e)) as AppError;
    expect(slow.message).toMatch(/did not answer in time/);
    const stalled = (await local()
      .fetchBytes(`http://127.0.0.1:${port}/stalls`)
      .catch((e: unknown) => e)) as AppError;
    expect(stalled.message).toMatch(/stopped sending/);
  });

  it("reports a closed port as refused, not as a crash", async () => {
    const closed = createServer();
    const freePort = await listen(closed);
    closed.close();
    const fetch = createFetcher({ allowHosts: new Set([`127.0.0.1:${freePort}`]) });
    const error = (await fetch.fetchBytes(`http://127.0.0.1:${freePort}/`).catch((e: unknown) => e)) as AppError;
    expect(error.message).toBe(`Could not fetch http://127.0.0.1:${freePort}/: the connection was refused`);
  });
});
