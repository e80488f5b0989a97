/**
 * The confining gate in the real claude binary (whichever PROCTOR_CLAUDE selects; CI runs both):
 * a command the classifier wrongly calls read-only is let through, runs confined and writes
 * nothing, and the Trace holds both the command asked for and the command that ran; ordinary
 * reads print what they print unconfined — `grep` included, which Claude Code's shell defines as
 * a function over its bundled ugrep.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect as vexpect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { denied, expect } from "../../src/index.js";
import { explainBash } from "../../src/effects/bash/classify.js";
import { CLI } from "../helpers/cli.js";
import { claudeVersion } from "../helpers/claude-version.js";

const gate = (args: string) => ({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `node ${CLI} gate ${args} || exit 2`, timeout: 30 }] }] } });
const FILES = { "notes.txt": "hello\nworld hello\n", "sub/more.txt": "hello there\n" };
// ugrep searches a tree in parallel, in no fixed order (unconfined too): a recursive grep is sorted.
const READS = ["ls", "cat notes.txt | head -1", "grep -rn hello . | sort", "grep -n hello notes.txt", "grep -c hello notes.txt", "wc -l notes.txt sub/more.txt", "type grep | head -1"];
const HOSTILE = "sed -e 'w PWNED' --version";

async function run(settings: Record<string, unknown> | undefined, commands: string[]) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  return runHarness({
    prompt: "look around",
    files: FILES,
    ...(settings ? { settings } : {}),
    allowedTools: ["Bash"],
    script: { turns: [{ tools: commands.map((command) => ({ name: "Bash", input: { command, description: "look" } })) }, { text: "Done." }] },
  });
}

describe(`the confining gate in the real claude binary (claude ${claudeVersion()})`, () => {
  it("lets a hostile read-only-looking command through, confined: it writes nothing and the Trace shows both commands", async () => {
    // The classifier's known blind spot this test leans on: `sed`'s `w` command behind --version.
    vexpect(explainBash(HOSTILE).effect).toBe("read-only");
    const result = await run(gate("--purity bounded"), [HOSTILE, "cat notes.txt"]);
    try {
      const [hostile, read] = result.trace.toolCalls;
      vexpect(existsSync(join(result.workDir, "PWNED"))).toBe(false);
      vexpect(hostile?.input.command).toBe(HOSTILE);
      vexpect(hostile?.ran?.by).toBe("hook");
      vexpect(hostile?.ran?.command).toMatch(/bwrap' '--ro-bind' '\/' '\/'.* -- \/bin\/bash -c 'sed -e '\\''w PWNED'\\'' --version'/);
      vexpect(hostile?.ran?.refused).toBe("Read-only file system");
      vexpect([hostile?.status, hostile?.deniedBy]).toEqual(["denied", "sandbox"]);
      vexpect(result.trace.errors.map((e) => e.kind)).toContain("confinement-refused");
      expect(result.trace, [denied("Bash", { command: /w PWNED/ }, { by: "sandbox" })]);
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
});
