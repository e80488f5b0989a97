/**
 * `proctor gate`'s confinement as a real process (the built CLI, hook JSON on stdin): which calls
 * it rewrites, that the rewrite runs under real bash like the command alone, and the answers where
 * confinement is impossible (no bwrap on PATH, Claude Code's own sandbox on, a tool it cannot
 * rewrite) or switched off.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-gate-confine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const work = join(dir, "work");
mkdirSync(work);
writeFileSync(join(work, "notes.txt"), "one\ntwo\nthree\n");
const emptyBin = join(dir, "empty-bin");
mkdirSync(emptyBin);

type Answer = { permissionDecision?: string; permissionDecisionReason?: string; updatedInput?: Record<string, unknown>; additionalContext?: string };

async function gate(args: string[], tool: string, input: Record<string, unknown>, options: { cwd?: string; env?: Record<string, string> } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const payload = JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: "t", cwd: options.cwd ?? work });
  // process.execPath, not "node": a test may hand the gate a PATH without bwrap (and without node).
  const r = await execa(process.execPath, [CLI, "gate", ...args], { input: payload, reject: false, ...(options.env ? { env: options.env, extendEnv: false } : {}) });
  return { exitCode: r.exitCode, stderr: r.stderr, answer: r.stdout === "" ? undefined : (JSON.parse(r.stdout).hookSpecificOutput as Answer) };
}

const bash = (command: string) => spawnSync("/bin/bash", ["-c", command], { cwd: work, encoding: "utf8", timeout: 20_000 });

describe("proctor gate confines what passes on the classifier's word", () => {
  it("rewrites a read-only Bash call, keeping every other input field; the rewrite prints what the command prints", async () => {
    const input = { command: "cat notes.txt | head -2", description: "peek", timeout: 5000 };
    const { answer } = await gate(["--purity", "bounded"], "Bash", input);
    expect(answer?.permissionDecision).toBe("allow");
    expect(answer?.permissionDecisionReason).toMatch(/runs confined \(bubblewrap/);
    const { command, ...rest } = answer?.updatedInput ?? {};
    expect(rest).toEqual({ description: "peek", timeout: 5000 });
    const confined = bash(String(command));
    expect([confined.status, confined.stdout]).toEqual([0, bash(input.command).stdout]);
  });

  it("rewrites a Monitor call's command too, keeping its fields", async () => {
    const input = { command: "cat notes.txt", description: "watch", timeout_ms: 60_000, persistent: false };
    const { answer } = await gate(["--rung", "auto"], "Monitor", input);
    expect(answer?.permissionDecision).toBe("allow");
    expect(answer?.updatedInput).toMatchObject({ description: "watch", timeout_ms: 60_000, persistent: false });
    expect(String(answer?.updatedInput?.command)).toContain("proctor-jail 'cat notes.txt'");
  });

  it("leaves alone what did not pass on the classifier's word: --approve alone, the bypass rung, a denied command", async () => {
    expect((await gate(["--approve"], "Bash", { command: "ls" })).answer).toEqual({ hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "proctor gate: every check passed" });
    expect((await gate(["--rung", "bypass"], "Bash", { command: "ls" })).answer?.updatedInput).toBeUndefined();
    expect((await gate(["--purity", "bounded"], "Bash", { command: "rm notes.txt" })).answer).toMatchObject({ permissionDecision: "deny" });
    expect((await gate(["--purity", "bounded"], "Read", { file_path: "notes.txt" })).answer).toBeUndefined();
  });

  it("the rewrite holds where the classifier would be wrong: the gate's wrapper around a writing command writes nothing", async () => {
    // The classifier now refuses every hostile command the corpora hold (e.g. `sed -e 'w PWNED' --version`),
    // so stand in for its next mistake: the gate's own rewrite of a read, with the inner command swapped.
    const { answer } = await gate(["--purity", "bounded"], "Bash", { command: "cat notes.txt" });
    expect(answer?.permissionDecision).toBe("allow");
    const rewritten = String(answer?.updatedInput?.command);
    expect(rewritten).toContain("'cat notes.txt'");
    const r = bash(rewritten.replace("'cat notes.txt'", "'touch PWNED'"));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(work, "PWNED"))).toBe(false);
  });
});

describe("proctor gate where confinement is impossible", () => {
  it("denies, saying how to install bubblewrap, when bwrap is not on PATH", async () => {
    const { exitCode, answer } = await gate(["--purity", "bounded"], "Bash", { command: "ls" }, { env: { PATH: emptyBin, HOME: dir } });
    expect(exitCode).toBe(0);
    expect(answer?.permissionDecision).toBe("deny");
    expect(answer?.permissionDecisionReason).toMatch(/cannot be confined here \(bubblewrap \(bwrap\) is not on PATH\).*apt-get install -y bubblewrap.*--confine off/);
  });

  it("denies while Claude Code's own sandbox is on in the project's settings (a nested bwrap cannot start)", async () => {
    const project = join(dir, "sandboxed");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
    const { answer } = await gate(["--purity", "bounded"], "Bash", { command: "ls" }, { cwd: project });
    expect(answer?.permissionDecision).toBe("deny");
    expect(answer?.permissionDecisionReason).toMatch(/Claude Code's own sandbox is on \(sandbox\.enabled in .*settings\.json\).*--confine off/);
  });

  it("denies a shell call it cannot rewrite (Codex's argv command), naming --confine off", async () => {
    const { answer } = await gate(["--dialect", "codex", "--purity", "bounded"], "shell", { command: ["bash", "-lc", "ls"] });
    expect(answer?.permissionDecision).toBe("deny");
    expect(answer?.permissionDecisionReason).toMatch(/cannot confine a shell call.*--confine off/);
  });

  it("prints the sandbox's own how-to when bwrap is there but cannot start (the rewrite run with a bwrap that fails)", async () => {
    const { answer } = await gate(["--purity", "bounded"], "Bash", { command: "ls" });
    const failing = join(dir, "bwrap-failing");
    writeFileSync(failing, "#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n", { mode: 0o755 });
    const rewrite = String(answer?.updatedInput?.command).replace(/'[^' ]*\/bwrap'/g, `'${failing}'`);
    expect(rewrite).toContain(failing);
    const r = bash(rewrite);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/proctor gate: cannot confine this command: bubblewrap could not start a sandbox here.*nothing ran/);
  });
});

describe("proctor gate --confine off (classifier only)", () => {
  it("lets the call through unconfined, saying it is weaker", async () => {
    const silent = await gate(["--purity", "bounded", "--confine", "off"], "Bash", { command: "ls" }, { env: { PATH: emptyBin, HOME: dir } });
    expect(silent.answer).toEqual({ hookEventName: "PreToolUse", additionalContext: expect.stringMatching(/classifier only \(--confine off\): the command runs unconfined/) });
    const allowed = await gate(["--rung", "auto", "--confine", "off"], "Bash", { command: "ls" });
    expect(allowed.answer?.permissionDecision).toBe("allow");
    expect(allowed.answer?.updatedInput).toBeUndefined();
    expect(allowed.answer?.permissionDecisionReason).toMatch(/classifier only \(--confine off\)/);
  });

  it("refuses an unknown mode: exit 2", async () => {
    const r = await gate(["--purity", "bounded", "--confine", "maybe"], "Bash", { command: "ls" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--confine must be on or off; got "maybe"/);
  });
});
