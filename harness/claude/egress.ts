
import dns from "node:dns";
import http from "node:http";
import net from "node:net";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import type { ConfinementRefusal } from "../../src/trace/types.js";
import { listenPrivate, type JailHost } from "./jail.js";

/** One allowed destination: a host (`*.example.com` matches its subdomains, not itself) and a port. */
export interface EgressRule {
  readonly host: string;
  readonly port: number;
}

/** The loopback port the proxy is served on inside the jail (the jail has its own network namespace: nothing else uses it). */
export const EGRESS_PORT = 3128;

/**
 * The allowlist for a real-tier trial: the API's host and port (`baseUrl`, default
 * https://api.anthropic.com), then each `allowedDomains` entry — `host` (ports 443 and 80),
 * `*.domain`, or `host:port`.
 */
export function egressRules(baseUrl: string | undefined, allowedDomains: readonly string[]): EgressRule[] {
  const api = new URL(baseUrl ?? "https://api.anthropic.com");
  const apiPort = Number(api.port || (api.protocol === "http:" ? 80 : 443));
  const rules: EgressRule[] = [{ host: api.hostname.toLowerCase().replace(/^\[|\]$/g, ""), port: apiPort }];
  for (const entry of allowedDomains) {
    const e = entry.trim().toLowerCase();
    const m = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(e) ?? /^([^:\s/[\]]+)(?::(\d+))?$/.exec(e);
    const port = m?.[2] === undefined ? undefined : Number(m[2]);
    if (!m || (port !== undefined && !(port >= 1 && port <= 65535))) {
      throw new InvalidInputError("INVALID_INPUT", `sandbox.allowedDomains: ${JSON.stringify(entry)} is not a host, *.domain, host:port or [ipv6]:port (ports 1–65535)`, { input: "sandbox.allowedDomains", hint: 'e.g. "registry.npmjs.org", "*.github.com", "10.0.0.5:8080"' });
    }
    const host = m[1] as string;
    if (port !== undefined) rules.push({ host, port });
    else rules.push({ host, port: 443 }, { host, port: 80 });
  }
  if (!(apiPort >= 1 && apiPort <= 65535)) throw new InvalidInputError("INVALID_INPUT", `baseUrl ${JSON.stringify(baseUrl)} has port ${apiPort}, outside 1–65535`, { input: "baseUrl" });
  return rules;
}

/** Does a rule let `host:port` through? Names compare without case and without a trailing dot; `*.` matches DNS names only. */
export function egressAllows(rules: readonly EgressRule[], host: string, port: number): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  // A wildcard names DNS names only: an address (127.0.0.1 under *.0.0.1) is allowed only as written.
  const name = net.isIP(h) === 0;
  return rules.some((r) => r.port === port && (r.host.startsWith("*.") ? name && h.endsWith(r.host.slice(1)) && h.length > r.host.length - 1 : h === r.host));
}

/** `host:port` of a CONNECT target (`[::1]:443` too), or undefined. */
export function connectTarget(target: string): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:/\s]+):(\d{1,5})$/.exec(target);
  return m ? { host: (m[1] as string).replace(/^\[|\]$/g, ""), port: Number(m[2]) } : undefined;
}

/** A JailHost whose socket is the egress proxy; `refused()` lists what it refused so far. */
export interface EgressHost extends JailHost {
  refused(): readonly ConfinementRefusal[];
}

/** Loopback, private, link-local and unspecified addresses: this machine and its network, not the internet. */
export function isLocalAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, "");
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(a);
  if (v4) {
    const [x, y] = [Number(v4[1]), Number(v4[2])];
    return x === 0 || x === 127 || x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 169 && y === 254) || (x === 100 && y >= 64 && y <= 127);
  }
  return a === "::" || a === "::1" || /^f[cd]/.test(a) || /^fe[89ab]/.test(a);
}

/**
 * The resolver the proxy connects with: a destination allowed by *name* must not resolve to a
 * local address (a wildcard domain whose record points at 127.0.0.1 would reach this machine's
 * services). A destination the allowlist names by address is taken as named.
 */
const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const local = addresses.find((a) => isLocalAddress(a.address));
    if (local) return callback(Object.assign(new Error(`${hostname} resolves to ${local.address}, a local address`), { code: "PROCTOR_LOCAL_ADDRESS" }), "", 0);
    if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error(`${hostname}: no address`), { code: "ENOTFOUND" }), "", 0);
  });
};

/** net/http connect options for a destination: a name goes through publicOnlyLookup, an address as it is. */
function dialOptions(host: string): { lookup?: net.LookupFunction } {
  return net.isIP(host) ? {} : { lookup: publicOnlyLookup };
}

/** Headers that speak to the next hop, not the far end: never forwarded, either way. */
const HOP_BY_HOP = new Set(["proxy-connection", "proxy-authorization", "proxy-authenticate", "connection", "keep-alive", "te", "trailer", "upgrade"]);

/** Refusals kept per trial before they are only counted. */
const MAX_REFUSALS = 100;

/** The headers without the hop-by-hop ones, and without any the Connection header names. */
function endToEnd(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(String(headers.connection ?? "").toLowerCase().split(",").map((h) => h.trim()));
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}

/**
 * Open the proxy for one trial: a private dir (0700) with its socket, removed by close(). Node's
 * HTTP server reads each request (keep-alive included: every request on a connection is checked,
 * not only the first), so an absolute-form request is forwarded as a new request to its host, and
 * CONNECT opens a tunnel; anything else is refused.
 */
export async function openEgressHost(rules: readonly EgressRule[]): Promise<EgressHost> {
  const refusals: ConfinementRefusal[] = [];
  const open = new Set<net.Socket>();
  const allowed = rules.map((r) => `${r.host}:${r.port}`).join(", ");
  let dropped = 0;
  // Kept for the Trace: the first MAX_REFUSALS, then one line counting the rest (a loop of refused connects must not fill memory).
  const refusal = (target: string, why: string): string => {
    const message = `proctor jail: egress to ${target} refused: ${why}`;
    if (refusals.length < MAX_REFUSALS) refusals.push({ kind: "confinement-refused", what: "network", target, errno: "EACCES", message: message.slice(0, 300) });
    else dropped++;
    return message;
  };
  const notAllowed = "not in the trial's allowlist (add it to sandbox.allowedDomains)";
  const answerNotAllowed = (message: string) => `${message}\nallowed: ${allowed}\n`;
  const server = http.createServer({ maxHeaderSize: 16_384 }, (req, res) => {
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? "");
    } catch {
      url = undefined;
    }
    if (url === undefined || url.protocol !== "http:") {
      const message = refusal("?", `${req.method} ${JSON.stringify((req.url ?? "").slice(0, 80))}: a proxy request names an absolute http URL (https goes through CONNECT)`);
      res.writeHead(403, { "content-type": "text/plain", connection: "close" }).end(`${message}\n`);
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = Number(url.port || 80);
    if (!egressAllows(rules, host, port)) {
      res.writeHead(403, { "content-type": "text/plain", connection: "close" }).end(answerNotAllowed(refusal(`${host}:${port}`, notAllowed)));
      return;
    }
    // Host is the URL's (an allowed host sharing an address with others gets no other site's name).
    const headers = { ...endToEnd(req.headers), host: url.host };
    let up: http.ClientRequest;
    try {
      up = http.request({ host, port, method: req.method, path: `${url.pathname}${url.search}`, headers, agent: false, ...dialOptions(host) }, (answer) => {
        // The upstream closes after each answer (agent: false); the client's connection stays the proxy's to keep.
        const status = answer.statusCode ?? 0;
        try {
          if (status < 100 || status > 599) throw new Error(`status ${status}`);
          res.writeHead(status, /^[\t\x20-\x7e]*$/.test(answer.statusMessage ?? "") ? answer.statusMessage : undefined, endToEnd(answer.headers));
        } catch (e) {
          answer.destroy();
          if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain", connection: "close" }).end(`proctor jail: ${host}:${port} answered what is not HTTP (${(e as Error).message})\n`);
          else res.destroy();
          return;
        }
        answer.on("error", () => res.destroy());
        answer.pipe(res);
      });
    } catch (e) {
      res.writeHead(502, { "content-type": "text/plain", connection: "close" }).end(`proctor jail: ${host}:${port}: ${(e as Error).message}\n`);
      return;
    }
    up.on("socket", (s: net.Socket) => {
      open.add(s);
      s.on("close", () => open.delete(s));
    });
    res.on("close", () => up.destroy());
    // A side that goes away mid-transfer ends the exchange; no error reaches proctor's process.
    req.on("error", () => up.destroy());
    res.on("error", () => up.destroy());
    up.on("error", (e: NodeJS.ErrnoException) => {
      const message = e.code === "PROCTOR_LOCAL_ADDRESS" ? refusal(`${host}:${port}`, e.message) : `proctor jail: ${host}:${port}: ${e.message}`;
      if (!res.headersSent) res.writeHead(e.code === "PROCTOR_LOCAL_ADDRESS" ? 403 : 502, { "content-type": "text/plain", connection: "close" }).end(`${message}\n`);
      else res.destroy();
    });
    req.pipe(up);
  });
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    open.add(client);
    client.on("close", () => open.delete(client)).on("error", () => client.destroy());
    const to = connectTarget(req.url ?? "");
    const target = to ? `${to.host}:${to.port}` : "?";
    if (!to || !egressAllows(rules, to.host, to.port)) {
      const message = refusal(target, to ? notAllowed : `CONNECT to ${JSON.stringify((req.url ?? "").slice(0, 80))}: not host:port`);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${to ? answerNotAllowed(message) : `${message}\n`}`);
      return;
    }
    let upstream: net.Socket;
    try {
      upstream = net.connect({ port: to.port, host: to.host, ...dialOptions(to.host) });
    } catch (e) {
      client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\nproctor jail: ${target}: ${(e as Error).message}\n`);
      return;
    }
    open.add(upstream);
    upstream.on("close", () => open.delete(upstream));
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    upstream.on("error", (e: NodeJS.ErrnoException) => {
      if (client.destroyed) return;
      if (e.code === "PROCTOR_LOCAL_ADDRESS") client.end(`HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n${refusal(target, e.message)}\n`);
      else client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\nproctor jail: ${target}: ${e.message}\n`);
    });
    client.on("close", () => upstream.destroy());
  });
  server.on("clientError", (error: NodeJS.ErrnoException, client: net.Socket) => {
    // A client that went away (ECONNRESET, a timeout, the end mid-request) refused nothing; only what could not be parsed is a refusal.
    if (!error.code?.startsWith("HPE_") || error.code === "HPE_INVALID_EOF_STATE") {
      client.destroy();
      return;
    }
    const message = refusal("?", `not an HTTP proxy request it can read (${error.code ?? error.message})`);
    if (client.writable) client.end(`HTTP/1.1 ${error.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\nconnection: close\r\n\r\n${message}\n`);
    else client.destroy();
  });
  server.on("connection", (s: net.Socket) => {
    open.add(s);
    s.on("close", () => open.delete(s));
  });
  const host = await listenPrivate("proctor-egress-", "egress.sock", server, open);
  const summary = (): ConfinementRefusal => ({ kind: "confinement-refused", what: "network", target: "*", errno: "EACCES", message: `proctor jail: ${dropped} more egress refusals not listed (the first ${MAX_REFUSALS} are)` });
  return { ...host, refused: () => (dropped > 0 ? [...refusals, summary()] : refusals) };
}
