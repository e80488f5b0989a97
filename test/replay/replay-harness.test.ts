/**
 * Record once on the real binary, replay offline: the replay makes the same calls (ids, inputs,
 * order, agents); a changed hook shows up as exactly that call's changed decision; the session log
 * Claude Code wrote reads to the same calls as the run's stream-json and replays the same way.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness, runReplay, type HarnessSpec } from "../../harness/index.js";
import { evalChecks, readTranscript, replayMatches, type Trace } from "../../src/index.js";
import { proctor } from "../helpers/cli.js";
import { atLeast, claudeVersion } from "../helpers/claude-version.js";

const examples = new URL("../../examples", import.meta.url).pathname;
const base = { cwd: examples, fixture: "./fixtures/app", plugins: ["./plugin"] } as const;
const spec: HarnessSpec = {
  ...base,
  prompt: "Tidy up the project",
  script: {
    turns: [
      { text: "Looking first.", tools: [{ name: "Bash", input: { command: "ls" } }, { name: "Read", input: { file_path: "notes.txt" } }] },
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
let sessionFolder: string;

/** A subagent's answer without the CLI's trailer (`agentId: …`, durations), which differs run to run. */
const answer = (text: string | undefined) => text?.replace(/\n*agentId: [\s\S]*$/, "");
const calls = (t: Trace) => t.toolCalls.map((c) => ({ id: c.id, name: c.name, input: c.input, agent: c.agent, status: c.status }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-replay-"));
  const run = await runHarness({ ...spec, keep: true });
  recorded = run.trace;
  recording = join(dir, "run.jsonl");
  writeFileSync(recording, run.stdout);
  // Claude Code's own session log of the same run, copied out before the run's dirs go.
  const projects = join(dirname(run.workDir), "home", ".claude", "projects");
  const project = join(projects, readdirSync(projects).find((p) => readdirSync(join(projects, p)).some((n) => n.endsWith(".jsonl")))!);
  const id = readdirSync(project).find((n) => n.endsWith(".jsonl"))!.replace(/\.jsonl$/, "");
  cpSync(project, join(dir, "session"), { recursive: true });
  sessionFolder = join(dir, "session", id);
  await run.cleanup();
  rmSync(dirname(run.workDir), { recursive: true, force: true });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("runReplay on the real binary", () => {
  it("replays a recording with zero divergences and the same calls, ids, inputs, agents and order", async () => {
    const { trace, cleanup } = await runReplay({ ...base, recording });
    await cleanup();
    expect(calls(trace)).toEqual(calls(recorded));
    expect(trace.subagents.map((s) => [s.id, s.type, answer(s.output)])).toEqual(recorded.subagents.map((s) => [s.id, s.type, answer(s.output)]));
    expect(answer(trace.subagents[0]?.output)).toBe("Looks fine.");
    expect(trace.replay).toEqual({ recording, divergences: [], stoppedEarly: false, versions: { recorded: claudeVersion(), now: claudeVersion() } });
    expect(evalChecks(trace, [replayMatches()])[0].pass).toBe(true);
  });

  it("reports exactly the changed decision when the plugin's hook changes", async () => {
    const plugin = join(dir, "plugin");
    cpSync(join(examples, "plugin"), plugin, { recursive: true });
    writeFileSync(join(plugin, "hooks", "guard-shell.mjs"), "process.stdin.resume();\nprocess.stdin.on('end', () => process.exit(0));\n");
    const { trace, cleanup } = await runReplay({ ...base, plugins: [plugin], recording });
    await cleanup();
    const rm = recorded.toolCalls.find((c) => c.input.command === "rm -rf notes.txt")!;
    expect(trace.replay?.divergences).toEqual([
      expect.objectContaining({ kind: "status", callId: rm.id, tool: "Bash", agent: "main", turn: 3, recorded: "denied (by hook)", now: "success" }),
    ]);
    expect(trace.replay?.divergences[0].message).toMatch(/no longer denied.*PreToolUse:Bash blocked → PreToolUse:Bash ran/);
    const [r] = evalChecks(trace, [replayMatches()]);
    expect(r.pass).toBe(false);
    expect(r.message).toMatch(/turn 3 \(main\) status/);
  });

  it("stops at the first divergence when asked, reporting only what differed up to there", async () => {
    const { trace, cleanup } = await runReplay({ ...base, files: { "notes.txt": "changed since the recording\n" }, recording, stopAtFirstDivergence: true });
    await cleanup();
    expect(trace.replay?.stoppedEarly).toBe(true);
    expect(trace.replay?.divergences.map((d) => [d.kind, d.tool])).toEqual([["result", "Read"]]);
    expect(trace.toolCalls.some((c) => c.name === "Agent")).toBe(false); // nothing after the stop was replayed
  });

  it("reads Claude Code's session log (file or folder) to the same calls as the run's stream-json (hook denials: failures on claude 2.1.197, denied on 2.1.332)", () => {
    // A session log records no hook events: on claude 2.1.197 a call a hook denied reads as a failing
    // call, with the hook's reason as its result (never guessed to be a hook's denial); claude 2.1.332
    // writes who decided (`permissionDecision.source: "hook"`) and the hook prefix, so it reads as denied.
    const logAttributes = atLeast("2.1.332");
    const expected = calls(recorded).map((c) => (c.status === "denied" && !logAttributes ? { ...c, status: "failure" } : c));
    expect(expected.filter((c) => c.status === (logAttributes ? "denied" : "failure"))).toHaveLength(1);
    for (const path of [sessionFolder, `${sessionFolder}.jsonl`]) {
      const fromLog = readTranscript(path);
      expect(calls(fromLog)).toEqual(expected);
      expect(fromLog.complete).toBe(true);
      expect(fromLog.output).toBe(recorded.output);
      expect(fromLog.subagents.map((s) => [s.id, s.type, s.calls, answer(s.output)])).toEqual(recorded.subagents.map((s) => [s.id, s.type, s.calls, answer(s.output)]));
      expect(fromLog.source).toMatchObject({ permissionMode: "acceptEdits", sessionId: recorded.source.sessionId, cwd: recorded.source.cwd });
      expect(fromLog.source.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(fromLog.source.gitBranch).toBeTypeOf("string");
    }
  });

  it("replays a session log, with the prompt the log kept", async () => {
    const { trace, cleanup } = await runReplay({ ...base, recording: sessionFolder });
    await cleanup();
    expect(calls(trace)).toEqual(calls(recorded));
    expect(trace.replay?.divergences).toEqual([]);
    expect(trace.modelRequests?.[0]?.messages).toContain("Tidy up the project");
  });

  it("proctor replay prints the timeline and exits 0 on a match, 1 on a divergence; proctor sessions lists the log", async () => {
    const same = await proctor(["replay", recording, "--plugin", join(examples, "plugin"), "--fixture", join(examples, "fixtures/app")], { env: { ...process.env, NO_COLOR: "1" } as Record<string, string> });
    expect(same.stdout).toMatch(/the replay matched the recording/);
    expect(same.exitCode).toBe(0);
    const changed = await proctor(["replay", recording, "--plugin", join(examples, "plugin")], { env: { ...process.env, NO_COLOR: "1" } as Record<string, string> });
    expect(changed.stdout).toMatch(/diverged/);
    expect(changed.exitCode).toBe(1);
    const listed = await proctor(["sessions", join(dir, "session", ".."), "--json"]);
    expect(listed.exitCode).toBe(0);
    const rows = JSON.parse(listed.stdout) as { id: string; toolCalls: number; status: string; prompt: string }[];
    expect(rows).toEqual([expect.objectContaining({ toolCalls: recorded.toolCalls.length, status: "complete", prompt: "Tidy up the project" })]);
    expect(existsSync(rows[0] ? `${sessionFolder}.jsonl` : "")).toBe(true);
  });
});
