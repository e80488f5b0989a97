/**
 * The repo-hygiene plugin (examples/plugin) under test: the real claude binary loads it with
 * --plugin-dir, a scripted mock model plays the model, and checks read the Trace.
 * Run: npm run example
 */
import "proctor/vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runHarness, type HarnessSpec } from "proctor/harness";
import { denied, didNotWrite, hookFired, notTool, onlyTools, received, replyCount, skill, subagent, toolWith } from "proctor";

const plugin = fileURLToPath(new URL("./plugin", import.meta.url));
const app = fileURLToPath(new URL("./fixtures/app", import.meta.url));

/** Every scenario: a copy of the demo app, the plugin loaded, the harness defaults otherwise. */
async function run(spec: Omit<HarnessSpec, "plugins" | "fixture">) {
  const result = await runHarness({ plugins: [plugin], fixture: app, ...spec });
  await result.cleanup();
  return result.trace;
}

describe("repo-hygiene plugin", () => {
  it("the guard blocks rm -rf: the call shows as denied and the file survives", async () => {
    const trace = await run({
      prompt: "clean up the notes",
      script: {
        turns: [
          { tools: [{ name: "Bash", input: { command: "rm -rf notes.txt" } }] },
          { tools: [{ name: "Bash", input: { command: "ls" } }] },
          { text: "The guard stopped me.\nSummary: nothing was deleted." },
        ],
      },
    });
    expect(trace).toPassAll([
      denied("Bash", { command: /rm -rf/ }),
      hookFired("PreToolUse:Bash"),
      didNotWrite("notes.txt"),
      received("Blocked by repo-hygiene: recursive force-removal"),
    ]);
    // The guard is not a blanket ban: the harmless command went through.
    expect(trace.toolCalls.map((c) => c.status)).toEqual(["denied", "success"]);
  });

  it("the run-checks skill stays inside its allowed tools", async () => {
    const allowedTools = /^allowed-tools:\s*(.+)$/m.exec(readFileSync(`${plugin}/skills/run-checks/SKILL.md`, "utf8"))![1].split(/,\s*/);
    const trace = await run({
      prompt: "check the project",
      // The project's own permission rule, as a user would ship it in .claude/settings.json.
      settings: { permissions: { allow: ["Bash(node scripts/check.mjs)"] } },
      script: {
        turns: [
          { tools: [{ name: "Skill", input: { skill: "repo-hygiene:run-checks" } }] },
          { tools: [{ name: "Bash", input: { command: "node scripts/check.mjs" } }] },
          { text: "All checks passed.\nSummary: checks ran clean." },
        ],
      },
    });
    expect(trace).toPassAll([
      skill("repo-hygiene:run-checks"),
      onlyTools(["Skill", ...allowedTools]),
      notTool("Bash", { command: /^(?!node scripts\/check\.mjs$)/ }),
      received("checks passed for demo-app"),
    ]);
  });

  it("the reviewer subagent's calls are attributed to it", async () => {
    const trace = await run({
      prompt: "review my change",
      script: {
        turns: [
          { tools: [{ name: "Agent", input: { description: "review", prompt: "Review src/index.js for risks", subagent_type: "repo-hygiene:reviewer" } }] },
          { text: "The reviewer found no risks.\nSummary: reviewed src/index.js." },
        ],
        subagents: [
          {
            type: "repo-hygiene:reviewer",
            turns: [{ tools: [{ name: "Read", input: { file_path: "src/index.js" } }] }, { text: "No risks: one constant export." }],
          },
        ],
      },
    });
    expect(trace).toPass(subagent("repo-hygiene:reviewer", [toolWith("Read", { file_path: "src/index.js" }), onlyTools(["Read", "Bash"])]));
    expect(trace.toolCalls.map((c) => `${c.name}@${c.agentType ?? c.agent}`)).toEqual(["Agent@main", "Read@repo-hygiene:reviewer"]);
  });

  it("the Stop hook's forced second reply is caught by replyCount", async () => {
    const trace = await run({
      prompt: "say when you are done",
      script: { turns: [{ text: "Done." }, { text: "Done.\nSummary: nothing needed changing." }] },
    });
    const oneReply = replyCount(/[\s\S]/, { max: 1 });
    expect(trace).not.toPass(oneReply); // the hook made the agent answer twice
    expect(oneReply.eval(trace).message).toMatch(/^expected at most 1 replies matching \/\[\\s\\S\]\/; 2 of 2 matched/);
    expect(trace).toPassAll([hookFired("Stop"), received("Stop hook feedback"), replyCount(/^Summary:/m, { min: 1, max: 1 })]);
  });
});
