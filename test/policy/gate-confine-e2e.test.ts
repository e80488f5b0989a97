/**
 * The confining gate in the real claude binary (whichever PROCTOR_CLAUDE selects; CI runs both):
 * a command the classifier wrongly calls read-only is let through, runs confined and writes
 * nothing, and the Trace holds both the command asked for and the command that ran; ordinary
 * reads print what they print unconfined — `grep` included, which Claude Code's shell defines as
 * a function over its bundled ugrep.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect as vexpect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { denied, expect } from "../../src/index.js";
import { explainBash } from "../../src/effects/bash/classify.js";
import { CLI } from "../helpers/cli.js";
import { claudeVersion } from "../helpers/claude-version.js";
import { hostileCommands } from "../helpers/hostile-commands.js";

const gate = (args: string) => ({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `node ${CLI} gate ${args} || exit 2`, timeout: 30 }] }] } });
const FILES = { "notes.txt": "hello\nworld hello\n", "sub/more.txt": "hello there\n" };
// ugrep searches a tree in parallel, in no fixed order (unconfined too): a recursive grep is sorted.
const READS = ["ls", "cat notes.txt | head -1", "grep -rn hello . | sort", "grep -n hello notes.txt", "grep -c hello notes.txt", "wc -l notes.txt sub/more.txt", "type grep | head -1"];
// A command the classifier rightly calls read-only, made to write by what it takes on trust (docs/safety.md,
// "Programs on PATH"): a `tac` earlier on PATH, in a directory no one else may write, that writes first.
const HOSTILE = "tac notes.txt";
const wrapBin = join(mkdtempSync(join(homedir(), ".proctor-wrap-")), "bin");
mkdirSync(wrapBin);
writeFileSync(join(wrapBin, "tac"), '#!/bin/sh\necho pwned > PWNED || exit 1\nexec /usr/bin/tac "$@"\n', { mode: 0o755 });
const wrapPath = `${wrapBin}:${process.env.PATH}`;
afterAll(() => rmSync(join(wrapBin, ".."), { recursive: true, force: true }));
// Claude Code's own sandbox stays off: the gate confines each call itself, and a nested bwrap cannot start inside it.
const SANDBOX_OFF = { off: "the gate under test confines each call itself; bwrap cannot nest inside claude's sandbox" } as const;

async function run(settings: Record<string, unknown> | undefined, commands: string[], files: Record<string, string> = FILES) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  return runHarness({
    prompt: "look around",
    files,
    ...(settings ? { settings } : {}),
    allowedTools: ["Bash"],
    sandbox: SANDBOX_OFF,
    env: { PATH: wrapPath },
    script: { turns: [{ tools: commands.map((command) => ({ name: "Bash", input: { command, description: "look" } })) }, { text: "Done." }] },
  });
}

describe(`the confining gate in the real claude binary (claude ${claudeVersion()})`, () => {
  it("lets a hostile read-only-looking command through, confined: it writes nothing and the Trace shows both commands", async () => {
    vexpect(explainBash(HOSTILE, { cwd: tmpdir(), env: { ...process.env, PATH: wrapPath } }).effect).toBe("read-only");
    const result = await run(gate("--purity bounded"), [HOSTILE, "cat notes.txt"]);
    try {
      const [hostile, read] = result.trace.toolCalls;
      vexpect(existsSync(join(result.workDir, "PWNED"))).toBe(false);
      vexpect(hostile?.input.command).toBe(HOSTILE);
      vexpect(hostile?.ran?.by).toBe("hook");
      vexpect(hostile?.ran?.command).toMatch(/bwrap' '--unshare-all'.* proctor-jail 'tac notes.txt'/);
      vexpect(hostile?.ran?.refused).toBe("Read-only file system");
      vexpect([hostile?.status, hostile?.deniedBy]).toEqual(["denied", "sandbox"]);
      vexpect(result.trace.errors.map((e) => e.kind)).toContain("confinement-refused");
      expect(result.trace, [denied("Bash", { command: /^tac / }, { by: "sandbox" })]);
      vexpect([read?.status, read?.result, read?.ran?.by]).toEqual(["success", "hello\nworld hello", "hook"]);
      vexpect(read?.ran?.refused).toBeUndefined();
    } finally {
      await result.cleanup();
    }
  }, 120_000);

  it("prints the same output for ordinary reads as the unconfined run, grep included", async () => {
    const confined = await run(gate("--purity bounded"), READS);
    const plain = await run(undefined, READS);
    try {
      const out = (r: typeof plain) => r.trace.toolCalls.map((c) => [c.input.command, c.status, c.result]);
      vexpect(confined.trace.toolCalls.every((c) => c.ran?.by === "hook")).toBe(true);
      vexpect(plain.trace.toolCalls.some((c) => c.ran !== undefined)).toBe(false);
      vexpect(out(confined)).toEqual(out(plain));
      // Claude Code's shell runs `grep` as a function over its bundled ugrep; confined, it still does.
      vexpect(out(confined).find(([c]) => c === "type grep | head -1")?.[2]).toBe("grep is a function");
      vexpect(out(confined).find(([c]) => c === "grep -rn hello . | sort")?.[2]).toMatch(/notes\.txt:1:hello/);
    } finally {
      await Promise.all([confined.cleanup(), plain.cleanup()]);
    }
  }, 180_000);

  it("the execution oracle through claude: generated hostile commands, whatever the classifier said, change nothing and connect nowhere", async () => {
    const root = mkdtempSync(join(tmpdir(), "proctor-confine-claude-"));
    const outside = join(root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "keep"), "outside\n");
    let connections = 0;
    const tcp = createServer((s) => {
      connections++;
      s.end();
    });
    const unix = createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
    await new Promise<void>((r) => unix.listen(join(root, "daemon.sock"), r));
    const targets = { outside, tmpMarker: `/tmp/proctor-confine-PWNED-${process.pid}`, port: (tcp.address() as { port: number }).port, sock: join(root, "daemon.sock") };
    // A fixed sample (the property test draws many more without claude), and the blind spot the classifier lets through.
    const commands = [HOSTILE, ...fc.sample(hostileCommands(targets), { numRuns: 5, seed: 4242 })];
    const files = { keep: "one\ntwo\nthree\n", file: "a b\nc d\n" };
    const result = await run(gate("--purity bounded"), commands, files);
    try {
      vexpect(result.trace.toolCalls.map((c) => c.input.command)).toEqual(commands);
      vexpect(result.trace.toolCalls.every((c) => c.status === "denied" || c.ran?.by === "hook")).toBe(true);
      await new Promise((r) => setTimeout(r, 300)); // a background job, a late connection
      vexpect(connections).toBe(0);
      vexpect(readdirSync(result.workDir).sort()).toEqual(["file", "keep"]);
      vexpect(readFileSync(join(result.workDir, "keep"), "utf8")).toBe(files.keep);
      vexpect(readdirSync(outside)).toEqual(["keep"]);
      vexpect(existsSync(targets.tmpMarker)).toBe(false);
    } finally {
      await result.cleanup();
      await Promise.all([tcp, unix].map((s) => new Promise((r) => s.close(r))));
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
