/**
 * The checks on what hooks said, what tools answered, what files hold, what the model was not
 * offered and what a slash command's allowed-tools allow — against one real claude run (both
 * versions CI runs), so each reads the Trace the binary really produces.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { evaluateChecks, fileContains, hookSaid, notOffered, toolResult, toolStatuses, withinAllowedTools, type Check, type Trace } from "../../src/index.js";

const say = (o: object) => ({ type: "command", command: `printf '%s' '${JSON.stringify(o)}'` });
const settings = {
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [say({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "push is not part of committing" } })] }],
    PostToolUse: [{ matcher: "Read", hooks: [say({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "README was read" } })] }],
  },
};
const COMMAND = "---\ndescription: Note the readme\nallowed-tools: Read, Write(./notes.md), Bash(git status:*)\n---\nRead README.md and write notes.md.\n";

describe("the check vocabulary on a real claude run", () => {
  it("hookSaid, toolResult, toolStatuses, fileContains, notOffered, withinAllowedTools", async () => {
    const { trace, cleanup } = await runHarness({
      prompt: "/note",
      settings,
      disallowedTools: ["WebFetch"],
      files: { ".claude/commands/note.md": COMMAND, "README.md": "proctor tests agents\n" },
      script: {
        turns: [
          { tools: [{ name: "Read", input: { file_path: "README.md" } }] },
          { tools: [{ name: "Write", input: { file_path: "notes.md", content: "summary: proctor tests agents\n" } }] },
          { tools: [{ name: "Bash", input: { command: "git push" } }] },
          { text: "Summary: noted." },
        ],
      },
    });
    // The command's file as the eval author has it, outside the run's work dir.
    const dir = mkdtempSync(path.join(tmpdir(), "proctor-vocab-"));
    const commandFile = path.join(dir, "note.md");
    try {
      writeFileSync(commandFile, COMMAND);
      const checks: Check<Trace>[] = [
        hookSaid("PreToolUse:Bash", /not part of committing/, { in: "reason" }),
        hookSaid("PostToolUse", "README was read", { in: "context" }),
        toolResult("Read", "proctor tests agents"),
        toolStatuses("Bash", ["denied"]),
        fileContains("notes.md", /^summary: proctor/),
        notOffered("WebFetch"),
        withinAllowedTools(commandFile),
      ];
      const results = await evaluateChecks(trace, checks);
      const verdicts = results.map((r) => [r.label, r.pass, r.message]);
      vexpect(verdicts.filter(([, pass]) => !pass)).toEqual([
        [
          `withinAllowedTools(${commandFile})`,
          false,
          vexpect.stringMatching(/while \/note was active \(invoked by the prompt \(\/note\)\), 1 of 3 call\(s\) went outside its allowed-tools .*\n {4}#2 Bash \{"command":"git push"\} → denied/),
        ],
      ]);
      // The control: the same hook said nothing like this.
      vexpect((await evaluateChecks(trace, [hookSaid("PreToolUse", "force", { in: "reason" }), notOffered("Read")])).map((r) => r.pass)).toEqual([false, false]);
    } finally {
      await cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("withinAllowedTools on a plugin's skill the model invoked (a bare name answers to plugin:name)", async () => {
    const plugin = fileURLToPath(new URL("../../examples/plugin", import.meta.url));
    const { trace, cleanup } = await runHarness({
      prompt: "check the project",
      plugins: [plugin],
      files: { "scripts/check.mjs": "console.log('ok')\n" },
      script: {
        turns: [
          { tools: [{ name: "Skill", input: { skill: "repo-hygiene:run-checks" } }] },
          { tools: [{ name: "Bash", input: { command: "node scripts/check.mjs" } }] },
          { tools: [{ name: "Bash", input: { command: "ls" } }] },
          { text: "Summary: done." },
        ],
      },
    });
    await cleanup();
    const [r] = await evaluateChecks(trace, [withinAllowedTools(path.join(plugin, "skills/run-checks"))]);
    vexpect(r?.pass).toBe(false);
    vexpect(r?.message).toMatch(/while skill run-checks was active \(invoked by 1 Skill call\(s\)\), 1 of 2 call\(s\) went outside .*\n {4}#2 Bash \{"command":"ls"\}/);
  });
});
