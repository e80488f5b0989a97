/**
 * A replay that stops at the first divergence stops because something differed: it never reads as
 * a match. A subagent's answer carries the CLI's per-run bookkeeping (`agentId: …`, durations),
 * which is no divergence, so an unchanged world replays to the end even when asked to stop early.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness, runReplay, type HarnessSpec } from "../../harness/index.js";
import { evalChecks, replayMatches, type Trace } from "../../src/index.js";

const examples = new URL("../../examples", import.meta.url).pathname;
const base = { cwd: examples, fixture: "./fixtures/app", plugins: ["./plugin"] } as const;
const spec: HarnessSpec = {
  ...base,
  prompt: "Tidy up the project",
  script: {
    turns: [
      { thinking: "A reviewer should look.", tools: [{ name: "Agent", input: { description: "review", prompt: "Review notes.txt", subagent_type: "repo-hygiene:reviewer", run_in_background: false } }] },
      { tools: [{ name: "Bash", input: { command: "rm -rf notes.txt" } }] },
      { text: "Summary: the guard stopped the delete." },
    ],
    subagents: [{ type: "repo-hygiene:reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "notes.txt" } }] }, { text: "Looks fine." }] }],
  },
};

let dir: string;
let recording: string;
let recorded: Trace;
const calls = (t: Trace) => t.toolCalls.map((c) => ({ id: c.id, name: c.name, agent: c.agent, status: c.status }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-attack-replay-"));
  const run = await runHarness({ ...spec, keep: true });
  recorded = run.trace;
  recording = join(dir, "run.jsonl");
  writeFileSync(recording, run.stdout);
  const projects = join(dirname(run.workDir), "home", ".claude", "projects");
  const project = join(projects, readdirSync(projects).find((p) => readdirSync(join(projects, p)).some((n) => n.endsWith(".jsonl")))!);
  cpSync(project, join(dir, "session"), { recursive: true });
  await run.cleanup();
  rmSync(dirname(run.workDir), { recursive: true, force: true });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("runReplay with stopAtFirstDivergence", () => {
  it("a removed guard is reported even when the replay stops early, and the unchanged subagent does not stop it", async () => {
    expect(recorded.toolCalls.find((c) => c.name === "Bash")?.status).toBe("denied");
    const plugin = join(dir, "plugin");
    cpSync(join(examples, "plugin"), plugin, { recursive: true });
    writeFileSync(join(plugin, "hooks", "guard-shell.mjs"), "process.stdin.resume();\nprocess.stdin.on('end', () => process.exit(0));\n");
    const { trace, cleanup } = await runReplay({ ...base, plugins: [plugin], recording, stopAtFirstDivergence: true });
    await cleanup();
    const [r] = evalChecks(trace, [replayMatches()]);
    expect(r.pass).toBe(false);
    expect(trace.replay?.divergences.map((d) => [d.kind, d.tool])).toEqual([["status", "Bash"]]);
    expect(calls(trace).map((c) => c.id)).toEqual(calls(recorded).map((c) => c.id));
  });
});
