/**
 * A whole mock-tier trial in proctor's jail (harness/claude/jail.ts), probed as an attacker would:
 * the real claude (the pinned one, or PROCTOR_CLAUDE's), real bubblewrap, and an oracle OUTSIDE
 * the trial — a unix-socket listener, a FIFO reader, a sentinel process, the session keyring and
 * target files, all in a project dir under the host's /tmp that the trial sees read-only. The
 * agent's Bash, a PreToolUse hook and an MCP server each try to get out; nothing may arrive, and
 * the Trace must name what the jail refused. Then each second-stage rule is shown necessary: left
 * out, its probe item gets out and the same oracle sees it. Arrivals are read after a barrier of
 * our own on each channel, never by timing.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness } from "../../harness/claude/run-harness.js";
import { jailTesting, type JailPart } from "../../harness/claude/jail.js";
import { sandboxMissing } from "../../harness/claude/sandbox.js";
import { findOnPath } from "../../src/policy/confine-preflight.js";
import type { Trace } from "../../src/trace/types.js";

const missing = process.platform === "linux" ? sandboxMissing() : ["Linux"];
const cc = findOnPath("cc", process.env.PATH);
if (missing.length > 0) console.warn(`jail-trial: skipped, the jail cannot start here: ${missing.join("; ")}`);
if (!cc && process.env.CI) throw new Error("jail-trial: no C compiler (cc) on PATH under CI: the C payloads cannot run (apt-get install -y gcc libc6-dev)");
if (!cc) console.warn("jail-trial: skipped, no C compiler (cc) on PATH for the payloads (install gcc or clang)");
const canRun = missing.length === 0 && cc !== undefined;

const project = mkdtempSync(join(tmpdir(), "proctor-jail-probe-"));
const outside = join(project, "outside");
const fifo = join(project, "pipe.fifo");
const sock = join(project, "daemon.sock");
const jp = join(project, "jp");
const keyName = `proctor-probe-${process.pid}`;
const writerMcp = join(import.meta.dirname, "fixtures", "write-mcp.mjs");

const unixArrivals: string[] = [];
let server: Server | undefined;
let fifoReader: { proc: ChildProcess; out: string[] } | undefined;
let sentinel: ChildProcess | undefined;

beforeAll(async () => {
  if (!canRun) return;
  chmodSync(project, 0o755);
  mkdirSync(outside);
  spawnSync("mkfifo", [fifo]);
  const built = spawnSync(cc as string, ["-O1", "-o", jp, join(import.meta.dirname, "..", "attack", "jail-payloads.c")], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`cc could not build the payloads: ${built.stderr}`);
  server = createServer((s: Socket) => {
    const i = unixArrivals.push("") - 1;
    s.on("data", (d: Buffer) => (unixArrivals[i] += d.toString()));
    s.on("error", () => undefined);
    s.on("end", () => s.end());
  });
  await new Promise<void>((resolve) => server?.listen(sock, resolve));
  // detached: its own process group, so the cat blocked on the FIFO ends with the loop
  const proc = spawn("/bin/sh", ["-c", `while :; do cat ${fifo} || exit; done`], { stdio: ["ignore", "pipe", "inherit"], detached: true });
  fifoReader = { proc, out: [] };
  proc.stdout?.on("data", (d: Buffer) => fifoReader?.out.push(...d.toString().split("\n").filter(Boolean)));
  sentinel = spawn("sleep", ["100000"], { stdio: "ignore" });
}, 60_000);

afterAll(async () => {
  sentinel?.kill("SIGKILL");
  if (fifoReader?.proc.pid) process.kill(-fifoReader.proc.pid, "SIGKILL");
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  rmSync(project, { recursive: true, force: true });
});

let barrier = 0;
/** Our own END behind whatever the trial sent, on the unix listener and the FIFO; resolves when both arrived. */
async function drain(): Promise<void> {
  const tag = `END-${++barrier}`;
  await new Promise<void>((resolve) => {
    const c = createConnection({ path: sock }, () => c.end(`${tag}\n`));
    c.on("close", () => resolve());
    c.on("error", () => resolve());
  });
  await waitFor(() => unixArrivals.some((l) => l.includes(tag)));
  const fd = openSync(fifo, constants.O_WRONLY);
  writeFileSync(fd, `${tag}\n`);
  closeSync(fd);
  await waitFor(() => fifoReader?.out.some((l) => l.includes(tag)) ?? true);
}

/** Poll a condition set by this process's own event loop (a barrier's arrival), not a clock. */
async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

function arrivals(): { unix: string[]; fifo: string[] } {
  return { unix: unixArrivals.filter((x) => x !== "" && !x.startsWith("END-")), fifo: (fifoReader?.out ?? []).filter((x) => !x.startsWith("END-")) };
}

function reset(): void {
  unixArrivals.length = 0;
  if (fifoReader) fifoReader.out.length = 0;
}

const PROBES = {
  remount: `mount -o remount,rw / ; echo PWNED > ${outside}/bash-PWNED`,
  fifo: `echo PWNED > ${fifo}`,
  unix: `${jp} unix ${sock}`,
  uring: `${jp} uring-unix ${sock}`,
  keyring: `${jp} add-key ${keyName}`,
  signal: "", // set once the sentinel runs
} as const;
type Probe = keyof typeof PROBES;

/** One trial whose agent runs `probes` in Bash (one call each), whose hook and MCP server (when `others`) write outside. */
async function probeTrial(probes: readonly Probe[], opts: { others?: boolean; omit?: JailPart[] } = {}): Promise<Trace> {
  const command = (p: Probe) => (p === "signal" ? `kill -9 ${sentinel?.pid}; kill -0 ${sentinel?.pid}` : PROBES[p]);
  jailTesting.omit = opts.omit ?? [];
  try {
    const { trace, cleanup } = await runHarness({
      cwd: project,
      prompt: "probe",
      allowedTools: ["Bash", "mcp__writer"],
      ...(opts.others
        ? {
            settings: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo PWNED >> ${outside}/hook-PWNED || true` }] }] } },
            mcpConfig: { mcpServers: { writer: { command: "node", args: [writerMcp] } } },
          }
        : {}),
      script: {
        turns: [
          ...probes.map((p) => ({ tools: [{ name: "Bash", input: { command: command(p) } }] })),
          ...(opts.others ? [{ tools: [{ name: "mcp__writer__write", input: { path: `${outside}/mcp-PWNED` } }] }] : []),
          { text: "Done." },
        ],
      },
      timeoutMs: 180_000,
    });
    await cleanup();
    await drain();
    return trace;
  } finally {
    jailTesting.omit = [];
  }
}

function callFor(trace: Trace, command: string) {
  const call = trace.toolCalls.find((c) => c.name === "Bash" && (c.input as { command?: string }).command === command);
  if (!call) throw new Error(`no Bash call ran ${command}; calls: ${JSON.stringify(trace.toolCalls.map((c) => [c.name, c.input]))}`);
  return call;
}

describe.skipIf(!canRun)("a whole trial in proctor's jail", () => {
  it("nothing the agent's Bash, a hook or an MCP server tries gets out, and the Trace names each refusal", async () => {
    reset();
    const all: Probe[] = ["remount", "fifo", "unix", "uring", "keyring", "signal"];
    const trace = await probeTrial(all, { others: true });

    // The oracle, outside the trial.
    expect(arrivals()).toEqual({ unix: [], fifo: [] });
    expect(() => process.kill(sentinel?.pid as number, 0)).not.toThrow();
    for (const f of ["bash-PWNED", "hook-PWNED", "mcp-PWNED"]) expect(existsSync(join(outside, f)), f).toBe(false);
    expect(spawnSync(jp, ["key-search", keyName], { encoding: "utf8" }).stdout.trim()).toBe("KEY-ABSENT");

    // What the Trace says.
    expect(trace.confinement?.mode).toBe("jail");
    expect(trace.outsideWrites?.sandbox).toEqual({ on: true });
    const refused = trace.confinement?.refused ?? [];
    const of = (p: Probe) => refused.filter((r) => r.owner === undefined && r.callId === callFor(trace, p === "signal" ? `kill -9 ${sentinel?.pid}; kill -0 ${sentinel?.pid}` : PROBES[p]).id);
    expect(of("remount").map((r) => r.errno)).toEqual(expect.arrayContaining(["EACCES", "EROFS"]));
    expect(of("remount").find((r) => r.errno === "EROFS")?.target).toBe(`${outside}/bash-PWNED`);
    expect(of("fifo")).toEqual([expect.objectContaining({ what: "write", target: fifo, errno: "EACCES" })]);
    expect(of("unix")).toEqual([expect.objectContaining({ what: "socket", errno: "EACCES" })]);
    expect(of("uring")).toEqual([expect.objectContaining({ what: "syscall", errno: "EPERM", message: expect.stringContaining("io_uring_setup") })]);
    expect(of("keyring")).toEqual([expect.objectContaining({ what: "syscall", errno: "EPERM", message: expect.stringContaining("add_key") })]);
    // The sentinel is in another pid namespace: the agent cannot even name it.
    expect(callFor(trace, `kill -9 ${sentinel?.pid}; kill -0 ${sentinel?.pid}`).result).toMatch(/No such process/);
    // Failed calls the jail stopped read as denied by the sandbox.
    for (const p of ["fifo", "unix", "uring", "keyring"] as const) expect(callFor(trace, PROBES[p])).toMatchObject({ status: "denied", deniedBy: "sandbox" });
    // The hook (once per Bash call) and the MCP server, by owner.
    const hookRefusals = refused.filter((r) => r.owner?.startsWith("PreToolUse") && r.target === `${outside}/hook-PWNED`);
    expect(hookRefusals.length).toBe(all.length);
    expect(refused).toContainEqual(expect.objectContaining({ owner: "writer", target: `${outside}/mcp-PWNED`, errno: "EROFS" }));
  }, 300_000);

  it("each second-stage rule is necessary: AF_UNIX and io_uring left out, the payload reaches the listener outside", async () => {
    reset();
    await probeTrial(["unix"], { omit: ["unixSocket"] });
    expect(arrivals().unix).toEqual(["PWNED\n"]);
    reset();
    await probeTrial(["uring"], { omit: ["ioUring"] });
    expect(arrivals().unix).toEqual(["PWNED\n"]);
    reset();
    // Control: the whole jail, the same two payloads, nothing arrives.
    await probeTrial(["unix", "uring"]);
    expect(arrivals().unix).toEqual([]);
  }, 400_000);
});

/**
 * As a user that is not root: the same jail through a child node running as nobody (setpriv), on
 * a temp dir that user owns — so without the jail each target below would be writable. Needs the
 * built dist (the child imports it), setpriv, and unprivileged user namespaces; skipped, saying
 * which, where one is missing.
 */
const dist = join(import.meta.dirname, "..", "..", "dist", "harness", "index.js");
const setpriv = findOnPath("setpriv", process.env.PATH);
const NOBODY = 65534;
const asNobody = (args: string[]) => spawnSync(setpriv as string, [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...args], { encoding: "utf8" });
const nonRootWhy = !canRun
  ? "the jail cannot start here"
  : process.getuid?.() !== 0
    ? "already not root: the tests above ran as this user"
    : !existsSync(dist)
      ? "no dist/ (npm run build first)"
      : !setpriv
        ? "no setpriv on PATH"
        : asNobody(["bwrap", "--ro-bind", "/", "/", "--unshare-all", "true"]).status !== 0
          ? "unprivileged user namespaces are off (kernel.unprivileged_userns_clone=0 or user.max_user_namespaces=0)"
          : undefined;
if (nonRootWhy) console.warn(`jail-trial: the non-root trial is skipped: ${nonRootWhy}`);

describe.skipIf(nonRootWhy !== undefined)("a whole trial in proctor's jail, as a user that is not root", () => {
  it("the agent's Bash and a hook cannot write outside the trial though the user owns the targets, and the Trace says so", () => {
    const home = mkdtempSync(join(tmpdir(), "proctor-jail-nobody-"));
    try {
      const proj = join(home, "project");
      const out = join(proj, "outside");
      const tmp = join(home, "tmp");
      for (const d of [proj, out, tmp]) mkdirSync(d, { recursive: true });
      const driver = join(home, "driver.mjs");
      const claude = process.env.PROCTOR_CLAUDE ?? join(import.meta.dirname, "..", "..", "node_modules", ".bin", "claude");
      writeFileSync(
        driver,
        `import { runHarness } from ${JSON.stringify(dist)};
const r = await runHarness({
  cwd: ${JSON.stringify(proj)}, claudePath: ${JSON.stringify(claude)}, prompt: "probe", allowedTools: ["Bash"], timeoutMs: 180000, reject: false,
  settings: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: ${JSON.stringify(`echo PWNED >> ${out}/hook-PWNED || true`)} }] }] } },
  script: { turns: [
    { tools: [{ name: "Bash", input: { command: ${JSON.stringify(`echo PWNED > ${out}/bash-PWNED`)} } }] },
    { tools: [{ name: "Bash", input: { command: ${JSON.stringify(`echo PWNED >> ${proj}/owned`)} } }] },
    { text: "Done." },
  ] },
});
process.stdout.write(JSON.stringify({ uid: process.getuid(), confinement: r.trace.confinement, failure: r.failure?.message }));
await r.cleanup();
`,
      );
      spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, home]);
      chownSync(home, NOBODY, NOBODY);
      const r = asNobody(["env", `TMPDIR=${tmp}`, `HOME=${home}`, process.execPath, driver]);
      expect(r.status, r.stderr).toBe(0);
      const got = JSON.parse(r.stdout) as { uid: number; confinement: Trace["confinement"]; failure?: string };
      expect(got.failure).toBeUndefined();
      expect(got.uid).toBe(NOBODY);
      for (const f of ["bash-PWNED", "hook-PWNED"]) expect(existsSync(join(out, f)), f).toBe(false);
      expect(existsSync(join(proj, "owned"))).toBe(false);
      expect(got.confinement?.mode).toBe("jail");
      const targets = (got.confinement?.refused ?? []).map((x) => `${x.owner ?? "bash"} ${x.errno} ${x.target}`);
      expect(targets).toEqual(expect.arrayContaining([`bash EROFS ${out}/bash-PWNED`, `bash EROFS ${proj}/owned`, `PreToolUse:Bash EROFS ${out}/hook-PWNED`]));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 300_000);
});

