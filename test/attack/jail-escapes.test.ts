/**
 * The jail (src/policy/confine.ts) against an execution oracle: payloads run inside — bash, and C
 * helpers compiled with cc (test/attack/jail-payloads.c) — against things OUTSIDE that say whether
 * anything arrived: a TCP listener, a unix stream listener, a unix datagram receiver, a FIFO reader
 * (each in the work dir, visible read-only inside), a session keyring, a lock, a sentinel process,
 * a cgroup-free count of forks, and snapshots of files. Every escape class is tried in the whole
 * jail (nothing gets out) and with the step that closes it left out (it gets out: the step is
 * necessary, and the oracle can see the escape). Some escapes are closed by two steps; those are
 * shown with both left out. A property composes payloads at random. Arrivals are read after a
 * barrier (an END message of our own, behind the payload's on the same channel), never by timing.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, closeSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, createConnection, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConfineLimits, type ConfineStep, confineCommand, pathPrefixes } from "../../src/policy/confine.js";
import { findOnPath } from "../../src/policy/confine-preflight.js";
import { CLI } from "../helpers/cli.js";

const bwrap = findOnPath("bwrap", process.env.PATH);
const hasBwrap = bwrap !== undefined && spawnSync(bwrap, ["--ro-bind", "/", "/", "true"]).status === 0;
const cc = findOnPath("cc", process.env.PATH);
const isRoot = process.getuid?.() === 0;
const RUNS = Number(process.env.CONFINE_RUNS ?? 1);

const root = mkdtempSync(join(tmpdir(), "proctor-jail-oracle-"));
const work = join(root, "work");
const outside = join(root, "outside");
const sock = join(work, "daemon.sock");
const dgramPath = join(work, "dgram.sock");
const fifo = join(work, "pipe.fifo");
const helper = join(work, "jp");
/** Under the host's /tmp, outside the work dir: hidden inside. */
const tmpMarker = join(tmpdir(), `proctor-jail-PWNED-${process.pid}`);

// CI installs a compiler (.ci/run): there a missing one is a broken set-up, never a skipped attack.
if (!cc && process.env.CI) throw new Error("jail-escapes: no C compiler (cc) on PATH under CI: the C payloads cannot run (apt-get install -y gcc libc6-dev)");
if (!cc) console.warn("jail-escapes: no C compiler (cc) on PATH: the C payloads are skipped (install gcc or clang to run them)");

let tcpPort = 0;
const accepted = { tcp: [] as string[], unix: [] as string[] };
const servers: Server[] = [];
let dgram: { proc: ChildProcess; lines: string[] } | undefined;
let fifoReader: { proc: ChildProcess; out: string[] } | undefined;

/** A listener that records, per connection, what the peer sent first ("" if nothing). */
function recorder(into: string[]): Server {
  return createServer((s: Socket) => {
    const i = into.push("") - 1;
    s.on("data", (d: Buffer) => (into[i] += d.toString()));
    s.on("error", () => undefined);
    s.on("end", () => s.end());
  });
}

function listen(server: Server, ...args: unknown[]): Promise<void> {
  servers.push(server);
  return new Promise((resolve) => (server.listen as (...a: unknown[]) => void)(...args, resolve));
}

/** Resolve when `lines` gets a line matching `re`, or when `proc` exits. */
function until(proc: ChildProcess, lines: string[], re: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = () => lines.some((l) => re.test(l));
    if (check()) return resolve();
    const onData = () => {
      if (check()) done();
    };
    const done = () => {
      proc.stdout?.off("data", onData);
      proc.off("exit", done);
      resolve();
    };
    proc.stdout?.on("data", onData);
    proc.on("exit", done);
  });
}

function readLines(proc: ChildProcess, into: string[]): void {
  let buf = "";
  proc.stdout?.on("data", (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split("\n");
    buf = parts.pop() ?? "";
    into.push(...parts);
  });
}

beforeAll(async () => {
  for (const d of [work, outside]) mkdirSync(d, { recursive: true });
  chmodSync(root, 0o755);
  writeFileSync(join(work, "keep"), "one\ntwo\n");
  writeFileSync(join(outside, "keep"), "outside\n");
  spawnSync("mkfifo", [fifo]);
  if (cc) {
    const r = spawnSync(cc, ["-O1", "-o", helper, join(import.meta.dirname, "jail-payloads.c")], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`cc could not build the payloads: ${r.stderr}`);
  }
  const tcp = recorder(accepted.tcp);
  await listen(tcp, 0, "127.0.0.1");
  tcpPort = (tcp.address() as { port: number }).port;
  await listen(recorder(accepted.unix), sock);
  if (cc) {
    const proc = spawn(helper, ["dgram-recv", dgramPath], { stdio: ["ignore", "pipe", "inherit"] });
    dgram = { proc, lines: [] };
    readLines(proc, dgram.lines);
    await until(proc, dgram.lines, /^READY$/);
  }
  // detached: its own process group, so the cat blocked on the FIFO ends with the loop
  const proc = spawn("/bin/sh", ["-c", `while :; do cat ${fifo} || exit; done`], { stdio: ["ignore", "pipe", "inherit"], detached: true });
  fifoReader = { proc, out: [] };
  readLines(proc, fifoReader.out);
}, 60_000);

afterAll(async () => {
  dgram?.proc.kill();
  if (fifoReader?.proc.pid) process.kill(-fifoReader.proc.pid, "SIGKILL");
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(root, { recursive: true, force: true });
  rmSync(tmpMarker, { force: true });
});

let barrier = 0;

/** Our own END on every channel, behind whatever the payload sent; resolves when each has arrived. */
async function drain(): Promise<void> {
  const tag = `END-${++barrier}`;
  const connect = (opts: { port: number; host: string } | { path: string }, into: string[]) =>
    new Promise<void>((resolve) => {
      const c = createConnection(opts as { path: string }, () => c.end(`${tag}\n`));
      c.on("close", () => resolve());
      c.on("error", () => resolve());
    }).then(() => waitFor(() => into.some((l) => l.includes(tag))));
  await connect({ port: tcpPort, host: "127.0.0.1" }, accepted.tcp);
  await connect({ path: sock }, accepted.unix);
  if (dgram && cc) {
    spawnSync(helper, ["dgram", dgramPath, tag]);
    await until(dgram.proc, dgram.lines, new RegExp(tag));
  }
  if (fifoReader) {
    const fd = openSync(fifo, constants.O_WRONLY);
    writeFileSync(fd, `${tag}\n`);
    closeSync(fd);
    await until(fifoReader.proc, fifoReader.out, new RegExp(tag));
  }
}

/** Poll a condition set by this process's own event loop (a barrier's arrival), not a clock. */
async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

interface Arrivals {
  tcp: number;
  unix: number;
  dgram: number;
  fifo: number;
}

function arrivals(): Arrivals {
  const real = (xs: string[]) => xs.filter((x) => !/^END-\d+/.test(x) && x !== "").length;
  return {
    tcp: accepted.tcp.filter((x) => !x.startsWith("END-")).length,
    unix: accepted.unix.filter((x) => !x.startsWith("END-")).length,
    dgram: real((dgram?.lines ?? []).filter((l) => l !== "READY")),
    fifo: real(fifoReader?.out ?? []),
  };
}

function reset(): void {
  accepted.tcp.length = 0;
  accepted.unix.length = 0;
  if (dgram) dgram.lines.length = 0;
  if (fifoReader) fifoReader.out.length = 0;
}

/** Every file and dir under `dir`: path → type, mode, size, mtime and content hash. */
function snapshot(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isFIFO() || st.isSocket()) continue; // the barrier writes to these: their readers are the oracle
    const hash = st.isFile() ? createHash("sha1").update(readFileSync(p)).digest("hex") : "";
    out.set(p, `${st.mode}:${st.size}:${st.mtimeMs}:${hash}`);
    if (st.isDirectory()) snapshot(p, out);
  }
  return out;
}

interface JailOpts {
  omit?: ConfineStep[];
  limits?: Partial<ConfineLimits>;
  /** Extra descriptors handed to the jail (fd 5 on). */
  fds?: number[];
  input?: string;
  /** Shown read-only besides the work dir (default: PATH's install prefixes). */
  visible?: string[];
  /** Wrap the whole text (e.g. the keyring session runner). */
  wrap?: (text: string) => string[];
}

async function jail(command: string, o: JailOpts = {}): Promise<{ code: number | undefined; signal: string | undefined; out: string }> {
  const text = confineCommand(command, { cwd: work, bwrap: bwrap as string, omit: o.omit ?? [], visible: o.visible ?? pathPrefixes(process.env.PATH, process.env.HOME), ...(o.limits ? { limits: o.limits } : {}) });
  const argv = o.wrap ? o.wrap(text) : ["/bin/bash", "-c", text];
  const stdio = ["pipe", "pipe", "pipe", "ignore", "ignore", ...(o.fds ?? [])] as const;
  const r = await execa(argv[0] as string, argv.slice(1), { cwd: work, reject: false, timeout: 60_000, stdio: stdio as never, all: true, ...(o.input === undefined ? { input: "" } : { input: o.input }) });
  return { code: r.exitCode, signal: r.signal, out: String(r.all ?? "") };
}

/** Run `command` in the jail; what got out, per channel, plus the outside snapshot's change. */
async function attempt(command: string, o: JailOpts = {}): Promise<{ out: string; got: Arrivals; wrote: boolean; tmp: boolean }> {
  reset();
  const before = snapshot(root);
  const r = await jail(command, o);
  await drain();
  const after = snapshot(root);
  const wrote = JSON.stringify([...after]) !== JSON.stringify([...before]);
  return { out: r.out, got: arrivals(), wrote, tmp: existsSync(tmpMarker) };
}

const NOTHING: Arrivals = { tcp: 0, unix: 0, dgram: 0, fifo: 0 };

describe.runIf(hasBwrap)("the jail against an execution oracle", () => {
  it("the oracle sees each channel (payloads run unconfined reach every listener)", async () => {
    reset();
    spawnSync("/bin/bash", ["-c", `echo PWNED > /dev/tcp/127.0.0.1/${tcpPort}; echo PWNED > ${fifo}; python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("${sock}"); s.send(b"PWNED")'`], { cwd: work });
    if (cc) spawnSync(helper, ["dgram", dgramPath]);
    await drain();
    expect(arrivals()).toEqual({ tcp: 1, unix: 1, dgram: cc ? 1 : 0, fifo: 1 });
  }, 60_000);

  it("TCP to a host listener: refused; without unshareNet it connects", async () => {
    const c = `echo PWNED > /dev/tcp/127.0.0.1/${tcpPort}`;
    expect((await attempt(c)).got).toEqual(NOTHING);
    expect((await attempt(c, { omit: ["unshareNet"] })).got.tcp).toBe(1);
  }, 120_000);

  it("a unix socket in the work dir (socket(2), from python): refused; without the unixSocket part it connects", async () => {
    const c = `python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("${sock}"); s.send(b"PWNED")'`;
    const r = await attempt(c);
    expect(r.got).toEqual(NOTHING);
    expect(r.out).toMatch(/Permission denied/);
    expect((await attempt(c, { omit: ["unixSocket"] })).got.unix).toBe(1);
  }, 120_000);

  it.runIf(cc)("an AF_UNIX socket made by io_uring (IORING_OP_SOCKET): refused; without the ioUring part it connects", async () => {
    const r = await attempt(`./jp uring-unix ${sock}`);
    expect(r.got).toEqual(NOTHING);
    expect(r.out).toMatch(/io_uring_setup: Operation not permitted/);
    expect((await attempt(`./jp uring-unix ${sock}`, { omit: ["ioUring"] })).got.unix).toBe(1);
  }, 120_000);

  it.runIf(cc)("socketpair(AF_UNIX, SOCK_DGRAM) + sendto a named socket: refused; without the socketpairStream part it arrives", async () => {
    const r = await attempt(`./jp dgram ${dgramPath}`);
    expect(r.got).toEqual(NOTHING);
    expect(r.out).toMatch(/socketpair: Permission denied/);
    expect((await attempt(`./jp dgram ${dgramPath}`, { omit: ["socketpairStream"] })).got.dgram).toBe(1);
  }, 120_000);

  it("a FIFO in the work dir (read-only bind): refused by Landlock; without it the reader outside gets the bytes", async () => {
    const c = `echo PWNED > ${fifo}`;
    const r = await attempt(c);
    expect(r.got).toEqual(NOTHING);
    expect(r.out).toMatch(/Permission denied/);
    expect((await attempt(c, { omit: ["landlock"] })).got.fifo).toBe(1);
  }, 120_000);

  it.runIf(cc)("add_key to the caller's session keyring: refused; without the keyring part it persists outside", async () => {
    const wrap = (text: string) => [helper, "session-run", "proctor-jail-key", "/bin/bash", "-c", text];
    const r = await jail("./jp add-key proctor-jail-key", { wrap });
    expect(r.out).toContain("add_key: Operation not permitted");
    expect(r.out).toContain("KEY-ABSENT");
    expect((await jail("./jp add-key proctor-jail-key", { wrap, omit: ["keyring"] })).out).toContain("KEY-FOUND");
  }, 120_000);

  it("a new user namespace with a writable mount (the cgroup2 route): refused; only with the namespaces part, Landlock and the cap drop all left out does it mount", async () => {
    // The escape's last step — a fresh cgroup2 mount whose cgroup.kill reaches processes outside —
    // needs a cgroup2 hierarchy the namespace owns; a tmpfs mount is the same capability, safely.
    const c = "unshare -Urm sh -c 'mount -t tmpfs x /tmp && echo MOUNTED'";
    for (const omit of [[], ["namespaces"], ["namespaces", "landlock"], ["namespaces", "capDrop"]] as ConfineStep[][]) expect((await jail(c, { omit })).out, omit.join(",")).not.toContain("MOUNTED");
    expect((await jail(c, { omit: ["namespaces", "landlock", "capDrop"] })).out).toContain("MOUNTED");
  }, 120_000);

  it("an inherited writable descriptor: closed before the command runs; without closeFds the write lands outside", async () => {
    const file = join(outside, "fd-target");
    writeFileSync(file, "");
    const fd = openSync(file, "a");
    try {
      const r = await jail("echo PWNED >&5", { fds: [fd] });
      expect(r.out).toMatch(/Bad file descriptor/);
      expect(readFileSync(file, "utf8")).toBe("");
      await jail("echo PWNED >&5", { fds: [fd], omit: ["closeFds"] });
      expect(readFileSync(file, "utf8")).toBe("PWNED\n");
    } finally {
      closeSync(fd);
    }
  }, 120_000);

  it("a read-only inherited descriptor reopened for writing through /proc/self/fd: refused; only without closeFds and Landlock it writes", async () => {
    const file = join(outside, "fd-reopen");
    writeFileSync(file, "");
    const fd = openSync(file, "r");
    try {
      for (const omit of [[], ["closeFds"]] as ConfineStep[][]) {
        await jail("echo PWNED > /proc/self/fd/5", { fds: [fd], omit });
        expect(readFileSync(file, "utf8"), omit.join(",")).toBe("");
      }
      await jail("echo PWNED > /proc/self/fd/5", { fds: [fd], omit: ["closeFds", "landlock"] });
      expect(readFileSync(file, "utf8")).toBe("PWNED\n");
    } finally {
      closeSync(fd);
    }
  }, 120_000);

  it("the work dir / is refused before anything runs (it would show the host's /proc, /dev and /tmp)", () => {
    expect(() => confineCommand("true", { cwd: "/" })).toThrow(/work dir is \//);
    expect(() => confineCommand("true", { cwd: "/proc/self" })).toThrow(/host's \/proc/);
  });

  it.runIf(cc)("flock and a lease on a read-only fd: refused; without the locks part the lock blocks a process outside", async () => {
    const target = join(work, "keep");
    const held = async (omit: ConfineStep[]) => {
      const text = confineCommand(`./jp flock ${target}`, { cwd: work, bwrap: bwrap as string, omit });
      const p = spawn("/bin/bash", ["-c", text], { cwd: work, stdio: ["pipe", "pipe", "pipe"] });
      const lines: string[] = [];
      readLines(p, lines);
      await until(p, lines, /LOCKED/);
      const outsideCanLock = spawnSync("flock", ["-n", target, "true"]).status === 0;
      p.stdin?.end();
      await new Promise((r) => (p.exitCode === null ? p.on("exit", r) : r(undefined)));
      return outsideCanLock;
    };
    expect(await held([])).toBe(true);
    expect(await held(["locks"])).toBe(false);
    expect((await jail(`./jp lease ${target}`)).out).toContain("lease: No locks available");
  }, 120_000);

  it("a /tmp fill ends at the jail's size; without tmpSize /tmp is as large as the host allows", async () => {
    const limits = { tmpMiB: 8, fileMiB: 64 };
    const fill = 'head -c $((16*1024*1024)) /dev/zero > "$TMPDIR/fill"; echo rc=$?; head -c $((16*1024*1024)) /dev/zero > /dev/shm/fill; echo shm=$?';
    const r = await jail(fill, { limits });
    expect(r.out).toMatch(/No space left on device[\s\S]*rc=1[\s\S]*No space left on device[\s\S]*shm=1/);
    expect((await jail(fill, { limits, omit: ["tmpSize"] })).out).toContain("rc=0");
  }, 120_000);

  it.runIf(cc)("a fork bomb ends at the process bound (as a user that is not root: the kernel exempts root, docs/safety.md)", async () => {
    const limits = { processes: 40 };
    const asUser = isRoot ? (text: string) => ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/bash", "-c", text] : undefined;
    const count = (out: string) => Number(/FORKED (\d+)/.exec(out)?.[1] ?? Number.NaN);
    const user = { limits, visible: [], ...(asUser ? { wrap: asUser } : {}) };
    const bounded = await jail("./jp forks 200", user);
    expect(count(bounded.out), bounded.out).toBeLessThan(40);
    const open = await jail("./jp forks 200", { ...user, omit: ["limits"] });
    expect(count(open.out), open.out).toBe(200);
  }, 120_000);

  it.runIf(cc)("memory and CPU time are bounded; without the limits they are not", async () => {
    expect((await jail("./jp map 2048", { limits: { memoryMiB: 512 } })).out).toMatch(/mmap: Cannot allocate memory/);
    expect((await jail("./jp map 2048", { limits: { memoryMiB: 512 }, omit: ["limits"] })).out).toContain("MAPPED");
    const spin = await jail("while :; do :; done", { limits: { cpuSeconds: 1 } });
    // soft = hard: the kernel's SIGKILL at the hard limit (or SIGXCPU at the soft one) ends the loop
    expect([128 + 9, 128 + 24], `${spin.code} ${spin.signal} ${spin.out}`).toContain(spin.code);
    expect((await jail("ulimit -t", { omit: ["limits"] })).out.trim()).toBe("unlimited");
  }, 120_000);

  it("a sentinel process outside cannot be signalled (its pid is not in the jail)", async () => {
    const sentinel = spawn("sleep", ["600"], { stdio: "ignore" });
    try {
      const r = await jail(`kill -9 ${sentinel.pid}; echo rc=$?`);
      expect(r.out).toMatch(/No such process[\s\S]*rc=1/);
      expect(sentinel.exitCode).toBeNull();
      expect(sentinel.signalCode).toBeNull();
    } finally {
      sentinel.kill();
    }
  }, 60_000);

  it("the host's files outside the shown paths are not visible; without fsAllowlist they are", async () => {
    expect((await jail(`cat ${join(outside, "keep")}`)).out).toMatch(/No such file or directory/);
    expect((await jail(`cat ${join(outside, "keep")}`, { omit: ["fsAllowlist"] })).out).toContain("outside");
  }, 60_000);

  it("writes anywhere are refused and leave nothing: work dir, outside, host /tmp, the jail's own root and /dev", async () => {
    const r = await attempt(`touch PWNED; touch ${join(outside, "PWNED")}; touch ${tmpMarker}; touch /PWNED; touch /dev/PWNED; mkdir -p ${outside}/d; echo done`);
    expect([r.wrote, r.tmp, r.got]).toEqual([false, false, NOTHING]);
    expect(r.out).toContain("done");
  }, 60_000);

  it.runIf(cc)("a payload fed to git on fd 99 through the real proctor gate (--purity bounded): it runs, confined, and gets nowhere", async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    // The repository includes /proc/self/fd/99: the classifier resolves that in its own process, where
    // fd 99 is not open, so `git status 99< payload.cfg` reads as read-only; inside, git reads the payload.
    spawnSync("git", ["init", "-q"], { cwd: work });
    spawnSync("git", ["config", "include.path", "/proc/self/fd/99"], { cwd: work });
    const script = [`${helper} uring-unix ${sock}`, `${helper} unix ${sock}`, `${helper} dgram ${dgramPath}`, `echo PWNED > ${fifo}`, `bash -c 'echo PWNED > /dev/tcp/127.0.0.1/${tcpPort}'`, `touch ${join(outside, "GIT_PWNED")}`].join("; ");
    writeFileSync(join(work, "payload.cfg"), `[core]\n\tfsmonitor = "${script}; #"\n`);
    const command = "git status 99< payload.cfg";
    try {
      reset(); // control: unconfined, the payload reaches every listener
      spawnSync("/bin/bash", ["-c", command], { cwd: work, stdio: "ignore" });
      await drain();
      expect(arrivals()).toEqual({ tcp: 1, unix: 2, dgram: 1, fifo: 1 });
      rmSync(join(outside, "GIT_PWNED"));
      const input = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command }, tool_use_id: "t", cwd: work });
      const r = await execa(process.execPath, [CLI, "gate", "--purity", "bounded"], { input, reject: false });
      const out = JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision?: string; updatedInput?: { command?: string } };
      // Today the classifier lets it through; were it to deny, this chain would be closed earlier (update the test).
      expect(out.permissionDecision).toBe("allow");
      const rewrite = out.updatedInput?.command ?? "";
      // The seccomp program is loaded by the Perl stage, from hex in its arguments.
      expect(rewrite).toMatch(/'\/usr\/bin\/perl' -e .* [0-9a-f]{64,} proctor-jail /);
      reset();
      const before = snapshot(root);
      await execa("/bin/bash", ["-c", rewrite], { cwd: work, reject: false, timeout: 60_000, stdin: "ignore" });
      await drain();
      expect(arrivals()).toEqual(NOTHING);
      expect([...snapshot(root)]).toEqual([...before]);
    } finally {
      rmSync(join(work, ".git"), { recursive: true, force: true });
      rmSync(join(work, "payload.cfg"), { force: true });
    }
  }, 120_000);

  it("compositions of payloads (fast-check): nothing arrives, nothing changes", async () => {
    const unit = fc.constantFrom(
      `echo PWNED > /dev/tcp/127.0.0.1/${tcpPort}`,
      `echo PWNED > ${fifo}`,
      `python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("${sock}"); s.send(b"PWNED")'`,
      ...(cc ? [`./jp uring-unix ${sock}`, `./jp unix ${sock}`, `./jp dgram ${dgramPath}`, "./jp add-key k", `./jp flock ${join(work, "keep")} </dev/null`] : []),
      "touch PWNED",
      `touch ${join(outside, "PWNED")}`,
      `touch ${tmpMarker}`,
      `cp keep ${outside}/copy`,
      "git init -q . ",
      "unshare -Ur true",
      `exec 7<>${fifo}; echo PWNED >&7`,
      `ln -s ${outside} link; echo x > link/PWNED`,
      "mount -o remount,rw / && touch /PWNED",
    );
    const join2 = fc.constantFrom("; ", " && ", " || ", " | ", " & ");
    const composed = fc.tuple(fc.array(fc.tuple(unit, join2), { minLength: 0, maxLength: 3 }), unit, fc.boolean()).map(([xs, last, sub]) => {
      const body = `${xs.map(([u, j]) => `${u}${j}`).join("")}${last}; wait`;
      return sub ? `( ${body} )` : body;
    });
    await fc.assert(
      fc.asyncProperty(composed, async (command) => {
        const r = await attempt(command);
        expect({ got: r.got, wrote: r.wrote, tmp: r.tmp }, `${command}\n${r.out}`).toEqual({ got: NOTHING, wrote: false, tmp: false });
      }),
      { numRuns: 15 * RUNS },
    );
  }, 300_000);
});
