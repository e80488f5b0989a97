/**
 * The jailed real tier's one way out (harness/claude/egress.ts): an allowlist proxy outside the
 * jail. Its matcher against a reference written another way (labels, not strings); the proxy
 * itself with real sockets, the listeners outside as the oracle; then a whole real-tier trial in
 * the jail (the real claude binary, the mock model standing in for a remote API on 127.0.0.2, so
 * claude reaches it only through the proxy), whose Bash reaches the allowed server and not the
 * other, and whose Trace names the refusal.
 */
import { createServer, type Server, connect as netConnect } from "node:net";
import { createServer as httpServer } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectTarget, egressAllows, egressRules, isLocalAddress, openEgressHost, type EgressRule } from "../../harness/claude/egress.js";
import { sandboxMissing } from "../../harness/claude/sandbox.js";
import { runEval } from "../../harness/index.js";
import { startMockModel } from "../../mock-model/index.js";

const missing = process.platform === "linux" ? sandboxMissing(process.env, process.platform, "jail") : ["Linux"];

describe("the allowlist", () => {
  it("allows the API's host and port, and each allowedDomains entry on 443 and 80, or on the port it names", () => {
    const rules = egressRules(undefined, ["registry.npmjs.org", "*.github.com", "127.0.0.2:8080"]);
    expect(egressAllows(rules, "api.anthropic.com", 443)).toBe(true);
    expect(egressAllows(rules, "API.Anthropic.com.", 443)).toBe(true);
    expect(egressAllows(rules, "api.anthropic.com", 80)).toBe(false);
    expect(egressAllows(rules, "anthropic.com", 443)).toBe(false);
    expect(egressAllows(rules, "registry.npmjs.org", 80)).toBe(true);
    expect(egressAllows(rules, "evil-registry.npmjs.org", 443)).toBe(false);
    expect(egressAllows(rules, "api.github.com", 443)).toBe(true);
    expect(egressAllows(rules, "github.com", 443)).toBe(false);
    expect(egressAllows(rules, "evilgithub.com", 443)).toBe(false);
    expect(egressAllows(rules, "127.0.0.2", 8080)).toBe(true);
    expect(egressAllows(rules, "127.0.0.2", 443)).toBe(false);
    expect(egressRules("http://127.0.0.2:9999", [])).toEqual([{ host: "127.0.0.2", port: 9999 }]);
    expect(egressRules("http://[::1]:8080", ["[2001:db8::1]:8443"])).toEqual([
      { host: "::1", port: 8080 },
      { host: "2001:db8::1", port: 8443 },
    ]);
    // A wildcard names DNS names only.
    expect(egressAllows(egressRules(undefined, ["*.0.0.1:80"]), "127.0.0.1", 80)).toBe(false);
    expect(egressAllows(egressRules(undefined, ["*.0.0.1:80"]), "a.0.0.1", 80)).toBe(true);
    for (const bad of ["example.com:70000", "example.com:0", "a b", "http://x", "2001:db8::1"]) expect(() => egressRules(undefined, [bad]), bad).toThrow(/sandbox\.allowedDomains: .* is not a host/);
  });

  it("agrees with a reference that compares labels (property)", () => {
    const label = fc.constantFrom("a", "b", "api", "github", "com", "x-y");
    const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join("."));
    const rule = fc.record({ host: fc.oneof(name, name.map((n) => `*.${n}`)), port: fc.constantFrom(80, 443, 8080) });
    const reference = (rules: readonly EgressRule[], host: string, port: number) =>
      rules.some((r) => {
        if (r.port !== port) return false;
        const want = r.host.split(".");
        const got = host.toLowerCase().split(".");
        if (want[0] !== "*") return want.join(".") === got.join(".");
        const suffix = want.slice(1);
        return got.length > suffix.length && got.slice(got.length - suffix.length).join(".") === suffix.join(".");
      });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 4 }), name, fc.constantFrom(80, 443, 8080), (rules, host, port) => {
        expect(egressAllows(rules, host, port)).toBe(reference(rules, host, port));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a CONNECT target as host:port, and nothing else", () => {
    expect(connectTarget("api.anthropic.com:443")).toEqual({ host: "api.anthropic.com", port: 443 });
    expect(connectTarget("[::1]:443")).toEqual({ host: "::1", port: 443 });
    for (const bad of ["nohost", "h:", ":443", "h:443/x", "h :443", "h:123456"]) expect(connectTarget(bad), bad).toBeUndefined();
  });
});

/** A TCP listener outside that counts connections and echoes what arrives. */
async function listener(host = "127.0.0.1"): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((s) => {
    const i = seen.push("") - 1;
    s.on("data", (d) => {
      seen[i] += d.toString();
      s.write(d);
    });
    s.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : 0, seen };
}

/** Send `head` (then `body`) to the proxy's socket; the whole answer once the proxy or the far end closes, or after `body` echoes. */
function throughProxy(socket: string, head: string, body = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = netConnect(socket);
    let got = "";
    c.on("data", (d) => {
      got += d.toString();
      if (body && got.includes("200 Connection Established") && !got.includes(body)) c.write(body);
      if (body && got.endsWith(body)) c.end();
    });
    c.on("close", () => resolve(got));
    c.on("error", reject);
    c.write(head);
  });
}

describe("the proxy (real sockets; the listeners outside are the oracle)", () => {
  it("tunnels to an allowed destination, refuses any other with a 403 and a refusal, and reaches nothing it refused", async () => {
    const allowed = await listener();
    const other = await listener();
    const host = await openEgressHost([{ host: "127.0.0.1", port: allowed.port }]);
    try {
      const ok = await throughProxy(host.socket, `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\n\r\n`, "ping");
      expect(ok).toBe("HTTP/1.1 200 Connection Established\r\n\r\nping");
      expect(allowed.seen).toEqual(["ping"]);
      const no = await throughProxy(host.socket, `CONNECT 127.0.0.1:${other.port} HTTP/1.1\r\n\r\n`);
      expect(no).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*egress to 127\.0\.0\.1:\d+ refused: not in the trial's allowlist/);
      const viaGet = await throughProxy(host.socket, `GET http://127.0.0.1:${other.port}/x HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(viaGet).toMatch(/^HTTP\/1\.1 403/);
      const junk = await throughProxy(host.socket, "hello\r\n\r\n");
      expect(junk).toMatch(/^HTTP\/1\.1 400[\s\S]*not an HTTP proxy request/);
      const relative = await throughProxy(host.socket, "GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
      expect(relative).toMatch(/^HTTP\/1\.1 403[\s\S]*names an absolute http URL/);
      const big = await throughProxy(host.socket, `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\nX: ${"a".repeat(20_000)}`);
      expect(big).toMatch(/^HTTP\/1\.1 431/);
      expect(other.seen).toEqual([]);
      expect(host.refused().map((r) => [r.what, r.target])).toEqual([
        ["network", `127.0.0.1:${other.port}`],
        ["network", `127.0.0.1:${other.port}`],
        ["network", "?"],
        ["network", "?"],
        ["network", "?"],
      ]);
    } finally {
      host.close();
      allowed.server.close();
      other.server.close();
    }
  });

  it("refuses a destination allowed by name that resolves to a local address (a wildcard record pointing home)", async () => {
    const target = await listener();
    const host = await openEgressHost([{ host: "localhost", port: target.port }]);
    try {
      expect(await throughProxy(host.socket, `CONNECT localhost:${target.port} HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403[\s\S]*localhost resolves to (127\.0\.0\.1|::1), a local address/);
      expect(await throughProxy(host.socket, `GET http://localhost:${target.port}/ HTTP/1.1\r\nHost: localhost\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403[\s\S]*a local address/);
      expect(target.seen).toEqual([]);
      expect(host.refused().map((r) => r.target)).toEqual([`localhost:${target.port}`, `localhost:${target.port}`]);
    } finally {
      host.close();
      target.server.close();
    }
    for (const a of ["127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1"]) expect(isLocalAddress(a), a).toBe(true);
    for (const a of ["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isLocalAddress(a), a).toBe(false);
  });

  it("survives an allowed server that answers what is not HTTP, and keeps only the first 100 refusals (then a count)", async () => {
    const bad = createServer((c) => {
      c.on("error", () => undefined);
      c.once("data", () => c.end("HTTP/1.1 000 \u0001bad\r\ncontent-length: 0\r\n\r\n"));
    });
    await new Promise<void>((r) => bad.listen(0, "127.0.0.1", r));
    const port = (bad.address() as { port: number }).port;
    const host = await openEgressHost([{ host: "127.0.0.1", port }]);
    try {
      expect(await throughProxy(host.socket, `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(/^HTTP\/1\.1 502[\s\S]*answered what is not HTTP/);
      for (let i = 0; i < 130; i++) await throughProxy(host.socket, `CONNECT 127.0.0.1:${port + 1} HTTP/1.1\r\n\r\n`);
      const refused = host.refused();
      expect(refused).toHaveLength(101);
      expect(refused.at(-1)?.message).toBe("proctor jail: 30 more egress refusals not listed (the first 100 are)");
    } finally {
      host.close();
      bad.close();
    }
  });

  it("forwards an absolute-form http request to an allowed server in origin form", async () => {
    let line = "";
    let hostHeader = "";
    const server = httpServer((req, res) => {
      line = `${req.method} ${req.url}`;
      hostHeader = req.headers.host ?? "";
      res.end("hello");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const host = await openEgressHost([{ host: "127.0.0.1", port }]);
    try {
      const answer = await throughProxy(host.socket, `GET http://127.0.0.1:${port}/p?q=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 200[\s\S]*hello$/);
      expect(line).toBe("GET /p?q=1");
      // The Host header is the URL's, not the client's (no fronting another site on a shared address).
      expect(hostHeader).toBe(`127.0.0.1:${port}`);
      // A client gone mid-body ends that exchange only: the proxy goes on serving.
      await new Promise<void>((resolve) => {
        const c = netConnect(host.socket, () => {
          c.write(`POST http://127.0.0.1:${port}/cut HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\npartial`);
          setTimeout(() => c.destroy(), 50);
        });
        c.on("close", () => resolve());
        c.on("error", () => undefined);
      });
      expect(await throughProxy(host.socket, `GET http://127.0.0.1:${port}/after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200[\s\S]*hello$/);
      // Keep-alive: the second request on one connection is checked too, and refused.
      const other = await listener();
      try {
        const two = await throughProxy(host.socket, `GET http://127.0.0.1:${port}/one HTTP/1.1\r\nHost: a\r\n\r\nGET http://127.0.0.1:${other.port}/two HTTP/1.1\r\nHost: b\r\n\r\n`);
        expect(two).toMatch(/^HTTP\/1\.1 200[\s\S]*hello[\s\S]*HTTP\/1\.1 403 Forbidden/);
        expect(line).toBe("GET /one");
        expect(other.seen).toEqual([]);
        expect(host.refused().map((r) => r.target)).toEqual([`127.0.0.1:${other.port}`]);
      } finally {
        other.server.close();
      }
    } finally {
      host.close();
      server.close();
    }
  });
});

describe.skipIf(missing.length > 0)("a real-tier trial in the jail (sandbox: { jail: true })", () => {
  // The mock stands in for a remote API: on 127.0.0.2, which the jail's own loopback does not have.
  const mock = startMockModel({ host: "127.0.0.2", unref: true });
  let allowed: Awaited<ReturnType<typeof listener>>;
  let other: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    allowed = await listener("127.0.0.2");
    other = await listener("127.0.0.2");
  });
  afterAll(async () => {
    allowed.server.close();
    other.server.close();
    await (await mock).close?.();
  });

  it("reaches the API and allowedDomains through the proxy, nothing else, and the Trace names the refusal", async () => {
    const server = await mock;
    const curl = (port: number, marker: string) => `curl -s -m 10 -o /dev/null -w '%{http_code}\\n' -X POST --data ${marker} http://127.0.0.2:${port}/ || true`;
    const run = server.addRun({
      turns: [
        { tools: [{ name: "Bash", input: { command: `${curl(allowed.port, "ALLOWED")}; ${curl(other.port, "OTHER")}; curl -s -m 5 --noproxy '*' http://127.0.0.2:${other.port}/ || echo DIRECT-FAILED` } }] },
        { text: "Done." },
      ],
    });
    const result = await runEval({ prompt: "go", apiKey: run.apiKey, baseUrl: server.url, allowedTools: ["Bash"], sandbox: { jail: true, allowedDomains: [`127.0.0.2:${allowed.port}`] }, timeoutMs: 90_000 });
    try {
      expect(result.trace.output).toBe("Done.");
      expect(result.trace.confinement?.mode).toBe("jail");
      expect(allowed.seen.join("")).toContain("ALLOWED");
      expect(other.seen).toEqual([]);
      const out = String(result.trace.toolCalls[0]?.result);
      expect(out).toContain("403");
      expect(out).toContain("DIRECT-FAILED");
      expect(result.trace.confinement?.refused).toEqual(expect.arrayContaining([expect.objectContaining({ what: "network", target: `127.0.0.2:${other.port}` })]));
    } finally {
      await result.cleanup();
      run.remove();
    }
  });
});
