/**
 * The whole trial in proctor's own jail: claude and everything it starts — Bash, hooks, MCP
 * servers, subagents — run inside one bubblewrap sandbox built from the gate's recipe
 * (src/policy/confine.ts), so a trial is confined the same way whatever claude's version, whether
 * its own sandbox works, and whether proctor runs as root. Claude's own sandbox is off inside
 * (nested namespaces are refused).
 *
 * What the trial sees: the system dirs, claude's install dir, node's prefix, the project, the
 * plugin sources and PATH's install prefixes, read-only; the trial's root (work dir, HOME, TMPDIR,
 * the plugin and MCP copies) read-write; the host's /tmp hidden (a tmpfs) with those paths bound
 * back wherever they live. No network: the mock model is reached through a unix socket. Outside,
 * an in-process forwarder listens on a socket in a private dir and connects to the mock's TCP port;
 * inside, socat listens on the mock's own loopback port and connects to that socket, so claude's
 * ANTHROPIC_BASE_URL stays `http://127.0.0.1:PORT`.
 *
 * Two seccomp stages. Stage 1 (bwrap's `--seccomp`, everything inside, socat included) is the
 * gate's allowlist with `socket(AF_UNIX)` allowed: socat needs it. Stage 2, applied by a few lines
 * of Perl just before claude is exec'd, is the gate's program as it is — AF_UNIX refused however
 * made, io_uring, keyrings, ptrace, bpf, mounts and namespaces refused — plus Landlock's scopes
 * where the kernel has them (ABI 6: signals and abstract unix sockets to outside the domain).
 * Filters stack: claude's tree runs under both. Landlock's write rule (stage 1, the gate's) allows
 * writes beneath the trial's root, the jail's /tmp and /dev only.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RunError } from "../../src/errors/proctor-error.js";
import { bwrapArgParts, DEFAULT_LIMITS, jailPrelude, pathPrefixes, shellQuote, SYSCALL_NR, type ConfineLimits } from "../../src/policy/confine.js";
import { jailFilter, type SeccompPart } from "../../src/policy/confine-seccomp.js";
import type { Confinement, ConfinementRefusal, HookEvent, Trace } from "../../src/trace/types.js";
import type { LaunchWrapper } from "../run/lifecycle.js";
import { attributeSandboxDenials } from "./hermetic.js";
import { allowWritePaths } from "./sandbox.js";
import type { SandboxSpec } from "../../src/eval/spec-types.js";
import { openPidsCgroup } from "../../src/policy/pids-cgroup.js";
import { trackDir, untrackDir } from "../process/live.js";
import type { ProcessResult } from "../process/run-process.js";
import type { RunDirs } from "../workdir/prepare.js";

/** Where the mock's socket appears inside the jail. */
const MOCK_SOCKET_INSIDE = "/run/proctor/mock.sock";

/**
 * Parts a test may leave out, to watch what each closes get out: a seccomp part (from both
 * stages: stage 1 alone already refuses all but AF_UNIX), or the whole of stage 2.
 */
export type JailPart = SeccompPart | "stage2" | "pidsCgroup";

/** Tests only: parts every jail this process builds leaves out (runHarness takes no such field). */
export const jailTesting: { omit: readonly JailPart[] } = { omit: [] };

export interface TrialJailOptions {
  readonly dirs: RunDirs;
  /** The project dir the trial was started from (spec.cwd): shown read-only. */
  readonly projectCwd: string;
  /** The trial's environment (PATH and HOME decide which install prefixes are shown). */
  readonly env: Readonly<Record<string, string>>;
  /** The loopback URL served inside (`http://127.0.0.1:PORT`): the mock model's, or the egress proxy's (egress.ts). */
  readonly serveUrl: string;
  /** More paths shown read-only (plugin sources, the spec's fixture). */
  readonly visible?: readonly string[];
  /** More paths writable (the spec's `sandbox.allowWrite`). */
  readonly writable?: readonly string[];
  readonly limits?: Partial<ConfineLimits>;
  /** Parts left out (tests only; default jailTesting.omit). */
  readonly omit?: readonly JailPart[];
  readonly bwrap?: string;
}

/** The node prefix (`/usr/local` for `/usr/local/bin/node`), the install dir of a binary (its `node_modules`, else its dir). */
function installDir(binary: string): string {
  let real = binary;
  try {
    real = realpathSync(binary);
  } catch {
    // A missing binary fails at spawn with its own message.
  }
  const ix = real.lastIndexOf("/node_modules/");
  return ix >= 0 ? real.slice(0, ix + "/node_modules".length) : path.dirname(real);
}

/** proctor's own package dir (its dist, its bins, the MCP stand-in): hooks and servers a trial runs may be proctor's. */
function proctorRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

function reachable(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute paths the trial's own settings name in hook and status-line commands (`node
 * /opt/hooks/check.mjs`), when they exist: a hook the spec configures must find its script in the
 * jail wherever it lives. Shown read-only, each path itself (never its folder: a script in the
 * host's /tmp does not show the rest of /tmp); the kernel's trees are never shown.
 */
export function settingsPaths(settings: Readonly<Record<string, unknown>> | undefined): string[] {
  const commands: string[] = [];
  const walk = (v: unknown, key: string | undefined): void => {
    if (typeof v === "string") {
      if (key === "command") commands.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(settings?.hooks, undefined);
  walk(settings?.statusLine, undefined);
  const out = new Set<string>();
  for (const command of commands) {
    for (const m of command.matchAll(/(?:^|[\s'"=:])(\/[^\s'"`;|&<>()$]+)/g)) {
      const p = path.normalize(m[1] as string).replace(/\/+$/, "");
      if (p === "" || p === "/" || /^\/(proc|sys|dev)(\/|$)/.test(p)) continue;
      if (existsSync(p)) out.add(p);
    }
  }
  return [...out];
}

/** The mock's loopback port, or a RunError: the jail serves only a port on 127.0.0.1 (or localhost) inside. */
export function mockPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  if (host !== "127.0.0.1" && host !== "localhost") {
    throw new RunError("SANDBOX_UNAVAILABLE", `runHarness: the mock model listens on ${u.host}, but inside proctor's jail only 127.0.0.1 is served`, {
      detail: '  start the mock on 127.0.0.1 (the default), or run without the jail: sandbox: { off: "why" } (CLI: --no-sandbox "why")',
    });
  }
  return { host, port };
}

/**
 * What one jailed trial holds outside: a private dir (0700, removed with the process whichever way
 * it ends) with stage 1's program and a unix socket whose connections are forwarded to the mock's
 * TCP port. Per trial, so nothing outlives it; `close()` is idempotent.
 */
export interface JailHost {
  readonly dir: string;
  readonly socket: string;
  close(): void;
  /** What the host side refused (the egress proxy's refused destinations), for the Trace. */
  refused?(): readonly ConfinementRefusal[];
}

/**
 * Serve `server` on a socket in a new private dir (0700; removed by the exit hook, or by the
 * supervisor after a SIGKILL, if close() never runs): the host side of a jail's way out. close()
 * stops it, destroys the sockets in `open` and removes the dir; it is idempotent.
 */
export async function listenPrivate(prefix: string, name: string, server: net.Server, open: Set<net.Socket>): Promise<Pick<JailHost, "dir" | "socket" | "close">> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  trackDir(dir);
  const socket = path.join(dir, name);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    server.close();
    for (const s of open) s.destroy();
    rmSync(dir, { recursive: true, force: true });
    untrackDir(dir);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socket, () => resolve());
    });
  } catch (error) {
    close();
    throw error;
  }
  server.unref();
  return { dir, socket, close };
}

/** Open a trial's JailHost for the mock at `url` (a RunError when the mock is not on loopback). */
export async function openJailHost(url: string): Promise<JailHost> {
  const { host, port } = mockPort(url);
  const open = new Set<net.Socket>();
  const server = net.createServer((inside) => {
    const mock = net.connect(port, host);
    open.add(inside).add(mock);
    inside.pipe(mock).pipe(inside);
    const close = () => {
      inside.destroy();
      mock.destroy();
      open.delete(inside);
      open.delete(mock);
    };
    inside.on("error", close).on("close", close);
    mock.on("error", close).on("close", close);
  });
  return listenPrivate("proctor-jail-", "mock.sock", server, open);
}

/** Stage 1's program, as a file bwrap reads (one per set of parts left out). */
function stage1File(dir: string, omit: readonly SeccompPart[]): string {
  const file = path.join(dir, `stage1${omit.length ? `-${[...omit].sort().join("-")}` : ""}.bpf`);
  if (!existsSync(file)) writeFileSync(file, jailFilter(omit, { allowUnixSockets: true }));
  return file;
}

/**
 * Stage 2, in Perl (no compiler; Debian's perl-base is essential): wait for socat's listener on
 * the mock's port (polling the jail's own /proc/net/tcp, bounded), set no_new_privs, add Landlock's
 * scopes where the ABI has them, load the strict seccomp program, exec claude.
 */
export function stage2Perl(nr: { prctl: number; seccomp: number }): string {
  return [
    "my ($hex, $port, @cmd) = @ARGV;",
    'my $want = sprintf("0100007F:%04X 00000000:0000 0A", $port); my $up = 0; my $until = time + 60;',
    'while (time <= $until) { if (open(my $f, "<", "/proc/net/tcp")) { local $/; my $t = <$f>; close $f; if (index($t, $want) >= 0) { $up = 1; last; } } select(undef, undef, undef, 0.005); }',
    'die "proctor jail: the forwarder to the mock model did not listen on 127.0.0.1:$port within 60 s (socat)\\n" unless $up;',
    `syscall(${nr.prctl}, 38, 1, 0, 0, 0) == 0 or die "proctor jail: PR_SET_NO_NEW_PRIVS: $!\\n";`,
    // Landlock ABI 6 scopes: LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL.
    'my $abi = syscall(444, 0, 0, 1); if ($abi >= 6) { my $attr = pack("QQQ", 0, 0, 3); my $rs = syscall(444, $attr, 24, 0); $rs >= 0 or die "proctor jail: landlock scopes: $!\\n"; syscall(446, $rs, 0) == 0 or die "proctor jail: landlock scopes: $!\\n"; }',
    'if ($hex ne "") { my $prog = pack("H*", $hex); my $fprog = pack("S x6 P", length($prog) / 8, $prog);',
    `  syscall(${nr.seccomp}, 1, 0, $fprog) == 0 or die "proctor jail: seccomp: $!\\n"; }`,
    'exec { $cmd[0] } @cmd or die "proctor jail: exec $cmd[0]: $!\\n";',
  ].join(" ");
}

/**
 * The jail for a trial built from a spec: the plugin sources and the paths its settings' hooks name
 * shown, its `sandbox.allowWrite` writable, served `serveUrl` through `host`.
 */
export function specJail(
  spec: { readonly sandbox?: SandboxSpec | undefined; readonly settings?: Readonly<Record<string, unknown>> | undefined },
  trial: { readonly dirs: RunDirs; readonly pluginCopies: ReadonlyMap<string, string> },
  at: { readonly cwd: string; readonly env: Readonly<Record<string, string>>; readonly serveUrl: string; readonly limits?: Partial<ConfineLimits> | undefined },
  host: JailHost,
): LaunchWrapper {
  const visible = [...trial.pluginCopies.keys(), ...settingsPaths(spec.settings)];
  return trialJail({ dirs: trial.dirs, projectCwd: at.cwd, env: at.env, serveUrl: at.serveUrl, visible, writable: allowWritePaths(spec.sandbox, at.cwd), ...(at.limits ? { limits: at.limits } : {}) }, host);
}

let warnedUnbounded = false;

/** Said once per process: as root without a writable pids cgroup, nothing bounds the jail's process count. */
function warnUnboundedRoot(): void {
  if (warnedUnbounded) return;
  warnedUnbounded = true;
  process.emitWarning(
    "proctor jail: no bound on the number of processes in a trial — running as root, where RLIMIT_NPROC is not enforced, and no pids cgroup can be made here (cgroup v1's pids hierarchy, or v2 with the pids controller delegated); a fork bomb in a trial then ends only at its timeout",
    { code: "PROCTOR_JAIL_UNBOUNDED" },
  );
}

/** The jail around one trial: a LaunchWrapper named `jail`. `host` is openJailHost(mockUrl)'s; dispose() closes it. */
export function trialJail(opts: TrialJailOptions, host: JailHost): LaunchWrapper {
  const { dirs } = opts;
  const { port } = mockPort(opts.serveUrl);
  const nr = SYSCALL_NR[process.arch];
  if (!nr) throw new RunError("SANDBOX_UNAVAILABLE", `runHarness: proctor's jail runs on x86_64 and aarch64, not ${process.arch}`, { detail: '  run without it: sandbox: { off: "why" } (CLI: --no-sandbox "why")' });
  const omit = new Set(opts.omit ?? jailTesting.omit);
  const parts = [...omit].filter((p): p is SeccompPart => p !== "stage2" && p !== "pidsCgroup");
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  // RLIMIT_NPROC does not bound a caller that is root outside; a pids cgroup does (pids-cgroup.ts).
  const cgroup = omit.has("pidsCgroup") ? undefined : openPidsCgroup(limits.processes);
  if (!cgroup && process.getuid?.() === 0) warnUnboundedRoot();
  return {
    name: "jail",
    wrap(binary, args) {
      // bwrap's --ro-bind-try skips a missing path but fails on one this user cannot reach (a PATH
      // entry under /root for a user that is not root): shown only what this process can stat.
      const visible = [installDir(binary), path.dirname(path.dirname(process.execPath)), proctorRoot(), opts.projectCwd, ...(opts.visible ?? []), ...pathPrefixes(opts.env.PATH, opts.env.HOME)].filter(reachable);
      // Perl's start-up hooks go (the stages run before their layers); the spec's own BASH_ENV stays claude's.
      const confine = { cwd: dirs.workDir, visible, writable: [dirs.root, ...(opts.writable ?? [])], limits, setTmpdir: false, unsetEnv: ["PERL5OPT", "PERL5DB"] };
      const { mounts, finish } = bwrapArgParts(confine);
      const stage2 = omit.has("stage2") ? "" : Buffer.from(jailFilter(parts)).toString("hex");
      const inner = [
        `socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${MOCK_SOCKET_INSIDE} </dev/null >/dev/null &`,
        `exec /usr/bin/perl -e ${shellQuote(stage2Perl(nr))} -- ${shellQuote(stage2)} ${port} ${[binary, ...args].map(shellQuote).join(" ")}`,
      ].join(" ");
      const bwrap = [...mounts, "--ro-bind", host.socket, MOCK_SOCKET_INSIDE, ...finish, "--seccomp", "3", "--", "/bin/bash", "-c", jailPrelude(confine), "proctor-jail", inner];
      // bwrap reads its seccomp program from a descriptor: a one-line bash opens it as fd 3, after
      // joining the trial's pids cgroup (everything it starts is then counted).
      const launch = cgroup ? `echo $$ > "$1" || { echo "proctor jail: cannot join the process-count cgroup $1" >&2; exit 125; }; shift; ` : "";
      return { binary: "/bin/bash", args: ["-c", `${launch}exec 3< "$1" && shift && exec "$@"`, "proctor-jail", ...(cgroup ? [cgroup.procs] : []), stage1File(host.dir, parts), opts.bwrap ?? "bwrap", ...bwrap] };
    },
    finish(trace: Trace, _proc: ProcessResult): Trace {
      const marked = attributeJailDenials(trace, dirs.root);
      const confinement: Confinement = { mode: "jail", refused: [...jailRefusals(marked, dirs.root), ...(host.refused?.() ?? [])] };
      return { ...marked, confinement };
    },
    dispose: () => {
      host.close();
      cgroup?.close();
    },
  };
}

/** A line that says the jail refused something, as programs print it: what kind, which errno. */
const REFUSAL_LINES: readonly { readonly re: RegExp; readonly what: string; readonly errno: string }[] = [
  { re: /read-only file system|\bEROFS\b/i, what: "write", errno: "EROFS" },
  { re: /no locks available|\bENOLCK\b/i, what: "lock", errno: "ENOLCK" },
  { re: /function not implemented|\bENOSYS\b/i, what: "syscall", errno: "ENOSYS" },
  { re: /address family not supported|\bEAFNOSUPPORT\b/i, what: "socket", errno: "EAFNOSUPPORT" },
  { re: /network is unreachable|\bENETUNREACH\b/i, what: "network", errno: "ENETUNREACH" },
  { re: /operation not permitted|\bEPERM\b/i, what: "syscall", errno: "EPERM" },
  { re: /permission denied|\bEACCES\b/i, what: "write", errno: "EACCES" },
];

/**
 * The absolute path a refusal line names: the last one before the error text (`bash: line 1:
 * /x/y: Read-only file system` names /x/y, not bash), else the first after it (node's `EROFS:
 * read-only file system, open '/x/y'`).
 */
function pathIn(line: string, at: number): string | undefined {
  const paths = [...line.matchAll(/(?:^|[\s'"`(:])(\/[^\s'"`:,)]+)/g)].map((m) => ({ path: m[1] as string, ix: (m.index ?? 0) + m[0].length }));
  return paths.filter((p) => p.ix <= at).at(-1)?.path ?? paths.find((p) => p.ix > at)?.path;
}

/** The refusal lines of one output, as entries (a `Permission denied` on a path inside the trial is the file's own mode, not the jail). */
function refusalsIn(text: string | undefined, root: string, who: { callId?: string; owner?: string }): ConfinementRefusal[] {
  const out: ConfinementRefusal[] = [];
  for (const raw of (text ?? "").split("\n")) {
    const line = raw.trim();
    const hit = REFUSAL_LINES.find((r) => r.re.test(line));
    if (!hit) continue;
    const target = pathIn(line, line.search(hit.re));
    if (hit.errno === "EACCES" && target !== undefined && (target === root || target.startsWith(`${root}/`))) continue;
    const what = /socket|connect/i.test(line) ? "socket" : /\bmount\b/.test(line) ? "mount" : hit.what;
    out.push({ kind: "confinement-refused", ...who, what, target: target ?? "", errno: hit.errno, message: line.length > 300 ? `${line.slice(0, 299)}…` : line });
  }
  return out;
}

/** Every refusal visible in the run: Bash and MCP results, hooks' stderr. */
export function jailRefusals(trace: Trace, root: string): ConfinementRefusal[] {
  const out: ConfinementRefusal[] = [];
  for (const call of trace.toolCalls) {
    if (call.name === "Bash" || call.name.startsWith("mcp__")) out.push(...refusalsIn(call.result, root, { callId: call.id, ...(call.name.startsWith("mcp__") ? { owner: call.name.split("__")[1] } : {}) }));
  }
  for (const hook of trace.hooks as readonly HookEvent[]) out.push(...refusalsIn(hook.stderr, root, { owner: hook.name, ...(hook.callId ? { callId: hook.callId } : {}) }));
  return out;
}

/** A failed Bash call whose result shows a jail refusal was stopped by the jail: `denied` by `sandbox`. */
export function attributeJailDenials(trace: Trace, root: string): Trace {
  return attributeSandboxDenials(trace, (result) => refusalsIn(result, root, {}).length > 0);
}
