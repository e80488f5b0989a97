/**
 * `proctor gate` judges a plain read-only command without loading the shell parser, and loads it
 * for anything else (cli/commands/gate.ts). Its answer must be the one the gate gives with the
 * parser loaded: the oracle is `decideGate` in this process, where the parser is loaded (test
 * setup), over a sample of the classifier's corpus in a clean and a hostile repository.
 */
import { afterAll, describe, expect, it } from "vitest";
import { explainBash } from "../../src/effects/bash/classify.js";
import { shellParserLoaded } from "../../src/effects/bash/parser.js";
import { claudeCodeDialect } from "../../src/effects/dialect.js";
import { decideGate, passedAsReadOnly } from "../../src/policy/gate.js";
import { confineAnswer } from "../../src/policy/confine-gate.js";
import { confinePreflight } from "../../src/policy/confine-preflight.js";
import { DEMOS, makeRepo, makeSandbox, removeSandboxes } from "../helpers/git-repos.js";
import { proctor } from "../helpers/cli.js";
import { READ_ONLY, SIDE_EFFECTING, UNDECIDABLE } from "../effects/classify-bash.corpus.js";

afterAll(removeSandboxes);

const sb = makeSandbox();
const clean = makeRepo(sb, "clean");
const hostile = makeRepo(sb, "hostile");
for (const key of ["core.fsmonitor", "diff.external"]) DEMOS.find((d) => d.key === key)?.setup(sb, hostile);

/** Every k-th command of each list, and the plain ones a gate meets most. */
const every = (list: readonly string[], k: number) => list.filter((_, i) => i % k === 0);
const COMMANDS = [...new Set(["git status", "git log --oneline -3", "ls -la src", "git diff --stat", "cat README.md", "rm -rf build", ...every(READ_ONLY, 20), ...every(SIDE_EFFECTING, 16), ...every(UNDECIDABLE, 14)])];

/** What the gate prints for the decision, as cli/commands/gate.ts renders it. */
function expected(command: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const judge = (c: string) => explainBash(c, { cwd, env });
  const options = { dialect: claudeCodeDialect, purity: "bounded", rung: "auto" } as const;
  const answer = decideGate("Bash", { command }, options, judge);
  const reason = answer.decision === "none" ? "proctor gate: every check passed" : `proctor gate: ${answer.reason}`;
  if ((answer.decision === "allow" || answer.decision === "none") && passedAsReadOnly("Bash", { command }, options, answer, judge)) {
    // Let through on the classifier's word: confined (the rewrite is the gate's; this test is about the verdict).
    return `${JSON.stringify(confineAnswer({ toolName: "Bash", toolInput: { command }, decision: answer.decision, reason, mode: "on", cwd, preflight: () => confinePreflight(cwd), env }).output)}\n`;
  }
  if (answer.decision === "none") return "";
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: answer.decision, permissionDecisionReason: reason } })}\n`;
}

describe("proctor gate without the shell parser for plain read-only commands", () => {
  it("answers as the gate with the parser loaded does, command by command", async () => {
    expect(shellParserLoaded()).toBe(true);
    expect(COMMANDS.length).toBeGreaterThan(30);
    // The CLI runs with this process's environment plus the sandbox's (execa extends it); judge in the same.
    const env = { ...process.env, ...sb.env } as Record<string, string>;
    for (const cwd of [clean, hostile]) {
      const cases = COMMANDS.map((command) => ({ command, want: expected(command, cwd, env) }));
      // A few processes at a time: the machine is shared.
      for (let i = 0; i < cases.length; i += 4) {
        const batch = cases.slice(i, i + 4);
        const got = await Promise.all(
          batch.map(({ command }) => proctor(["gate", "--purity", "bounded", "--rung", "auto"], { input: JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command }, cwd }), env })),
        );
        batch.forEach(({ command, want }, j) => {
          expect(got[j]!.exitCode, `${command} in ${cwd}: ${got[j]!.stderr}`).toBe(0);
          expect(got[j]!.stdout + (got[j]!.stdout ? "\n" : ""), `${command} in ${cwd}`).toBe(want);
        });
      }
    }
  });
});
