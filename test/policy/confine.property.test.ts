/**
 * The confining gate against an execution oracle: random commands from the classifier's read-only
 * corpus, hostile payloads (writes in and out of the work dir, HOME, /tmp; TCP and unix-socket
 * connections to listeners in this process; remounts, git config programs, background jobs) and
 * compositions of the two. Whatever the classifier says about a command:
 *
 * 1. through the real `proctor gate` (the built CLI): a command it lets through runs as Claude Code
 *    would run it (the rewrite when there is one), and
 * 2. through the gate's rewrite alone, for every command — read-only or not, since the classifier
 *    may be wrong about any of them —
 *
 * no file under the watched roots (work dir, a sibling dir, HOME, /tmp) changes and no connection
 * reaches a listener. CONFINE_RUNS=n scales the runs (CI: a small fixed budget); CONFINE_SEED=n
 * replays one. A first test shows the oracle does see a write and a connection.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath } from "../../src/policy/confine-preflight.js";
import { bwrapRewrite } from "../../src/policy/confine-shell.js";
import { hostileCommands } from "../helpers/hostile-commands.js";
import { CLI } from "../helpers/cli.js";

const RUNS = Number(process.env.CONFINE_RUNS ?? 1);
const SEED = process.env.CONFINE_SEED === undefined ? undefined : Number(process.env.CONFINE_SEED);
const bwrap = findOnPath("bwrap", process.env.PATH);
const hasBwrap = bwrap !== undefined && spawnSync(bwrap, ["--ro-bind", "/", "/", "true"]).status === 0;

const root = mkdtempSync(join(tmpdir(), "proctor-confine-oracle-"));
const work = join(root, "work");
const outside = join(root, "outside");
const home = join(root, "home");
const sock = join(root, "daemon.sock");
/** A name under the host's /tmp that no command should be able to create. */
const tmpMarker = `/tmp/proctor-confine-PWNED-${process.pid}`;
let port = 0;
let connections = 0;
const servers: Server[] = [];

function listen(server: Server, ...args: unknown[]): Promise<void> {
  servers.push(server);
  return new Promise((resolve) => (server.listen as (...a: unknown[]) => void)(...args, resolve));
}

beforeAll(async () => {
  for (const d of [work, outside, home, join(work, "src")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(work, "keep"), "one\ntwo\nthree\n");
  writeFileSync(join(work, "file"), "a b\nc d\n");
  writeFileSync(join(work, "src", "x.ts"), "export {};\n");
  writeFileSync(join(outside, "keep"), "outside\n");
  spawnSync("git", ["init", "-q"], { cwd: work });
  spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"], { cwd: work });
  const count = (s: { end(): void; on(e: string, f: () => void): void }) => {
    connections++;
    s.on("error", () => undefined);
    s.end();
  };
  const tcp = createServer(count);
  await listen(tcp, 0, "127.0.0.1");
  port = (tcp.address() as { port: number }).port;
  await listen(createServer(count), sock);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(root, { recursive: true, force: true });
  rmSync(tmpMarker, { force: true });
});

/** Every file and dir under `dir`: path → type, mode, size, mtime and content hash. */
function snapshot(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    const hash = st.isFile() ? createHash("sha1").update(readFileSync(p)).digest("hex") : "";
    out.set(p, `${st.mode}:${st.size}:${st.mtimeMs}:${hash}`);
    if (st.isDirectory()) snapshot(p, out);
  }
  return out;
}

const hostile = () => ({ outside, tmpMarker, port, sock });

/** Run a command text as Claude Code's shell would (bash, in the work dir, HOME in the sandbox), with a kill timeout. */
async function runShell(text: string): Promise<void> {
  await execa("/bin/bash", ["-c", text], { cwd: work, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home }, extendEnv: false, reject: false, timeout: 15_000, stdin: "ignore" });
}

/** Nothing changed under the roots, nothing reached a listener, since `before`. */
async function expectUntouched(before: Map<string, string>, what: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 50)); // let a connection that did happen be counted
  expect(connections, `${what}: a connection reached a listener`).toBe(0);
  expect(existsSync(tmpMarker), `${what}: wrote ${tmpMarker}`).toBe(false);
  expect(existsSync("/PWNED-remount"), `${what}: remounted /`).toBe(false);
  expect([...snapshot(root)], what).toEqual([...before]);
}

/** What Claude Code runs for a call the gate answered: the rewrite, the command, or nothing. */
async function gateRun(command: string): Promise<string | undefined> {
  const input = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command }, tool_use_id: "t", cwd: work });
  const r = await execa(process.execPath, [CLI, "gate", "--purity", "bounded"], { input, reject: false, env: { HOME: home } });
  expect(r.exitCode, r.stderr).toBe(0);
  if (r.stdout === "") return command;
  const out = JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision?: string; updatedInput?: { command?: string } };
  if (out.permissionDecision === "deny" || out.permissionDecision === "ask") return undefined;
  return out.updatedInput?.command ?? command;
}

describe.runIf(hasBwrap)("the confining gate against an execution oracle", () => {
  it("the oracle sees a write and a connection (unconfined)", async () => {
    const before = snapshot(root);
    await runShell(`touch PWNED; exec 3<>/dev/tcp/127.0.0.1/${port}`);
    await new Promise((r) => setTimeout(r, 50));
    expect(connections).toBe(1);
    expect([...snapshot(root)]).not.toEqual([...before]);
    rmSync(join(work, "PWNED"));
    connections = 0;
  });

  it("whatever the classifier said, a command the real gate lets through changes nothing and connects nowhere", async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(hostileCommands(hostile()), async (command) => {
        const before = snapshot(root);
        const text = await gateRun(command);
        if (text === undefined) return;
        expect(text, `the gate let ${JSON.stringify(command)} through unconfined`).toContain("--cap-drop");
        ran++;
        await runShell(text);
        await expectUntouched(before, command);
      }),
      // Read-only commands the gate lets through, always run first: the generated ones may all be
      // denied in a run, and a property that ran nothing confined proves nothing.
      { numRuns: 20 * RUNS, examples: [["ls -la src"], ["git log --oneline -3"]], ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    expect(ran).toBeGreaterThan(0);
  }, 300_000);

  it("the gate's rewrite holds for every command, read-only or not", async () => {
    await fc.assert(
      fc.asyncProperty(hostileCommands(hostile()), async (command) => {
        const before = snapshot(root);
        await runShell(bwrapRewrite(command, work, bwrap as string));
        await expectUntouched(before, command);
      }),
      { numRuns: 40 * RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  }, 300_000);
});
