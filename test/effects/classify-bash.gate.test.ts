/**
 * The exploits that once passed the purity gate, sent to the real `proctor gate` process the way
 * Claude Code sends a PreToolUse call, and read back the way Claude Code reads the answer: each
 * must be blocked. And each really does write under bash — checked here too, so the test cannot
 * go on passing for commands that have become harmless.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHook } from "../../harness/index.js";
import { CLI } from "../helpers/cli.js";
import { runUnderBash } from "./classify-bash.execute.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-gate-exploits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXPLOITS = [
  "cat <<EOF\n  $(touch PWNED)\nEOF",
  "cat <<-EOF\n\t$(touch PWNED)\n\tEOF",
  'echo "${HOME%$(touch PWNED)}"',
  "echo \"${x:-'$(touch PWNED)'}\"",
  "ls \r# ; touch PWNED",
  "printf -v'a[$(touch PWNED)]' 1",
];

describe("proctor gate --purity bounded against exploits that run under bash", () => {
  it("each exploit really writes under bash", async () => {
    const findings = await runUnderBash(EXPLOITS);
    expect(findings.map((f) => f.command)).toEqual(EXPLOITS);
  });

  it.each(EXPLOITS)("blocks %j", async (command) => {
    const r = await runHook(`node ${CLI} gate --purity bounded`, "PreToolUse", { toolName: "Bash", toolInput: { command }, cwd: dir, timeoutMs: 20_000 });
    expect(r).toMatchObject({ exitCode: 0, blocked: true, decision: "deny" });
    expect(r.reason).toMatch(/^proctor gate: \[purity bounded\] Bash command is (undecidable|side-effecting)/);
  });
});
