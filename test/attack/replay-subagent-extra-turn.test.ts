/**
 * A subagent that now asks for a turn its recording does not have (a SubagentStop hook makes it go
 * on) answers the main agent with the replay's note instead of its recorded answer: a divergence,
 * although an Agent call's result text is not compared.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness, runReplay, type HarnessSpec } from "../../harness/index.js";
import { evalChecks, replayMatches } from "../../src/index.js";

const examples = new URL("../../examples", import.meta.url).pathname;
const base = { cwd: examples, fixture: "./fixtures/app", plugins: ["./plugin"] } as const;
const spec: HarnessSpec = {
  ...base,
  prompt: "Review the notes",
  script: {
    turns: [
      { tools: [{ name: "Agent", input: { description: "review", prompt: "Review notes.txt", subagent_type: "repo-hygiene:reviewer", run_in_background: false } }] },
      { text: "Summary: the reviewer found nothing." },
    ],
    subagents: [{ type: "repo-hygiene:reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "notes.txt" } }] }, { text: "Looks fine." }] }],
  },
};

let dir: string;
let recording: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-attack-subturn-"));
  const run = await runHarness(spec);
  recording = join(dir, "run.jsonl");
  writeFileSync(recording, run.stdout);
  await run.cleanup();
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("runReplay: a subagent that now goes on", () => {
  it("is a divergence", async () => {
    const hook = join(dir, "go-on.mjs");
    writeFileSync(
      hook,
      "let raw='';process.stdin.on('data',(c)=>raw+=c);process.stdin.on('end',()=>{const i=JSON.parse(raw);if(!i.stop_hook_active)process.stdout.write(JSON.stringify({decision:'block',reason:'Check once more.'}));process.exit(0);});\n",
    );
    const settings = { hooks: { SubagentStop: [{ hooks: [{ type: "command", command: `node ${hook}` }] }] } };
    const { trace, cleanup } = await runReplay({ ...base, settings, recording });
    await cleanup();
    expect(trace.hooks.some((h) => h.event === "SubagentStop" && h.blocked)).toBe(true);
    const [r] = evalChecks(trace, [replayMatches()]);
    expect(r.pass).toBe(false);
  });
});
