// The repo-hygiene plugin under node:test: each check is its own subtest, so
// `node --test --test-reporter=junit` reports one testcase per check.
// Run: npm run build && node --test examples/node-test/
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runHarness } from "proctor/harness";
import { checkEach } from "proctor/node-test";
import { denied, didNotWrite, hookFired, notTool, onlyTools, received, replyCount, skill, subagent, toolWith } from "proctor";

const plugin = fileURLToPath(new URL("../plugin", import.meta.url));
const app = fileURLToPath(new URL("../fixtures/app", import.meta.url));

async function run(spec) {
  const result = await runHarness({ plugins: [plugin], fixture: app, ...spec });
  await result.cleanup();
  return result.trace;
}

test("the guard blocks rm -rf: the call shows as denied and the file survives", async (t) => {
  const trace = await run({
    prompt: "clean up the notes",
    script: { turns: [{ tools: [{ name: "Bash", input: { command: "rm -rf notes.txt" } }] }, { text: "The guard stopped me.\nSummary: nothing was deleted." }] },
  });
  await checkEach(t, trace, [denied("Bash", { command: /rm -rf/ }), hookFired("PreToolUse:Bash"), didNotWrite("notes.txt")]);
});

test("the run-checks skill stays inside its allowed tools", async (t) => {
  const trace = await run({
    prompt: "check the project",
    settings: { permissions: { allow: ["Bash(node scripts/check.mjs)"] } },
    script: {
      turns: [
        { tools: [{ name: "Skill", input: { skill: "repo-hygiene:run-checks" } }] },
        { tools: [{ name: "Bash", input: { command: "node scripts/check.mjs" } }] },
        { text: "All checks passed.\nSummary: checks ran clean." },
      ],
    },
  });
  await checkEach(t, trace, [
    skill("repo-hygiene:run-checks"),
    onlyTools(["Skill", "Read", "Bash(node scripts/check.mjs:*)"]),
    notTool("Bash", { command: /^(?!node scripts\/check\.mjs$)/ }),
    received("checks passed for demo-app"),
  ]);
});

test("the reviewer subagent's calls are attributed to it", async (t) => {
  const trace = await run({
    prompt: "review my change",
    script: {
      turns: [
        { tools: [{ name: "Agent", input: { description: "review", prompt: "Review src/index.js for risks", subagent_type: "repo-hygiene:reviewer" } }] },
        { text: "The reviewer found no risks.\nSummary: reviewed src/index.js." },
      ],
      subagents: [{ type: "repo-hygiene:reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "src/index.js" } }] }, { text: "No risks." }] }],
    },
  });
  await checkEach(t, trace, [subagent("repo-hygiene:reviewer", [toolWith("Read", { file_path: "src/index.js" }), onlyTools(["Read", "Bash"])])]);
});

test("the Stop hook's forced second reply is caught by replyCount", async (t) => {
  const trace = await run({ prompt: "say when you are done", script: { turns: [{ text: "Done." }, { text: "Done.\nSummary: nothing needed changing." }] } });
  assert.equal(replyCount(/[\s\S]/, { max: 1 }).eval(trace).pass, false, "one reply per prompt is what the hook breaks");
  await checkEach(t, trace, [hookFired("Stop"), received("Stop hook feedback"), replyCount(/^Summary:/m, { min: 1, max: 1 })]);
});
