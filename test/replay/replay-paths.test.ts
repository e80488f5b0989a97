/**
 * A replay never touches the recorder's paths: a subagent's absolute Write (whose system prompt
 * says "Working directory:", not "Primary working directory:") lands in the replay's work dir;
 * a recorded call that still leaves it is refused and reported; a set-up that lacks what the
 * recording had is warned about before the first call and listed after the run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness, runReplay } from "../../harness/index.js";
import { evalChecks, replayMatches, type PreflightWarning } from "../../src/index.js";
import type { TurnContext } from "../../src/eval/script-types.js";

const examples = new URL("../../examples", import.meta.url).pathname;
const base = { cwd: examples, fixture: "./fixtures/app" } as const;
// The main agent's system prompt names the work dir; a subagent's does on some claude versions only.
let recordedCwd = "/nowhere";
const seeWorkDir = (c: TurnContext) => {
  recordedCwd = /[Ww]orking directory: (.+)/.exec(`${c.request.system}\n${c.request.inbound ?? ""}`)?.[1]?.trim() ?? recordedCwd;
};

let dir: string;
let outside: string;
let recording: string;
let recordedWorkDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-replay-paths-"));
  // A file of the recorder's, outside its work dir: the recording reads it by absolute path.
  outside = join(dir, "recorder-home-notes.md");
  writeFileSync(outside, "the recorder's private notes\n");
  const run = await runHarness({
    ...base,
    plugins: ["./plugin"],
    prompt: "Save the data",
    script: {
      turns: [
        (c) => {
          seeWorkDir(c);
          return { tools: [{ name: "Read", input: { file_path: outside } }] };
        },
        { tools: [{ name: "Agent", input: { description: "write", prompt: "Save the data", subagent_type: "general-purpose", run_in_background: false } }] },
        { text: "Summary: the report is written." },
      ],
      subagents: [{ type: "general-purpose", turns: [() => ({ tools: [{ name: "Write", input: { file_path: `${recordedCwd}/data.json`, content: "{}\n" } }] }), { text: "Written." }] }],
    },
  });
  recordedWorkDir = run.workDir;
  recording = join(dir, "run.jsonl");
  writeFileSync(recording, run.stdout);
  await run.cleanup();
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("runReplay paths and preflight on the real binary", () => {
  it("writes a subagent's absolute path into the replay's work dir and refuses the read outside it", async () => {
    const warnings: PreflightWarning[] = [];
    const { trace, workDir, cleanup } = await runReplay({ ...base, plugins: ["./plugin"], recording, keep: true, onPreflight: (w) => warnings.push(w) });
    try {
      const write = trace.toolCalls.find((c) => c.name === "Write");
      expect(write?.input.file_path).toBe(join(workDir, "data.json"));
      expect(write?.status, JSON.stringify(trace.toolCalls.map((c) => [c.name, c.input, c.status, c.result]))).toBe("success");
      expect(readFileSync(join(workDir, "data.json"), "utf8")).toBe("{}\n");
      expect(existsSync(join(recordedWorkDir, "data.json"))).toBe(false);
      // The outside Read was not made: a refused divergence names its field and path.
      expect(trace.toolCalls.some((c) => c.name === "Read")).toBe(false);
      const divergences = trace.replay?.divergences ?? [];
      expect(divergences).toContainEqual(expect.objectContaining({ kind: "refused", tool: "Read", recorded: `file_path: ${outside}`, now: "not called" }));
      expect(divergences.filter((d) => d.kind === "call")).toEqual([]);
      expect(evalChecks(trace, [replayMatches()])[0].pass).toBe(false);
      expect(warnings).toEqual([]);
    } finally {
      // keep: cleanup() leaves the kept root alone; the test removes it itself.
      await cleanup();
      rmSync(dirname(workDir), { recursive: true, force: true });
    }
  }, 120_000);

  it("lets an allowed root through", async () => {
    const { trace, cleanup } = await runReplay({ ...base, plugins: ["./plugin"], recording, allowOutside: [dir] });
    await cleanup();
    // Made as recorded (claude itself asks before reading outside the work dir, as it did then).
    expect(trace.toolCalls.find((c) => c.name === "Read")?.input.file_path).toBe(outside);
    expect(trace.replay?.divergences).toEqual([]);
  }, 120_000);

  it("lists a plugin the replay lacks in its preflight, and warns live about a recorded tool it does not offer", async () => {
    const warnings: PreflightWarning[] = [];
    const { trace, cleanup } = await runReplay({ ...base, recording, allowOutside: [dir], disallowedTools: ["Write"], onPreflight: (w) => warnings.push(w) });
    await cleanup();
    expect(trace.replay?.preflight).toContainEqual(expect.objectContaining({ kind: "plugins", names: ["repo-hygiene"] }));
    expect(warnings).toContainEqual(expect.objectContaining({ kind: "tools", names: ["Write"] }));
    // The live warning came before any call: it is the first one said.
    expect(warnings[0]?.kind).toBe("tools");
  }, 120_000);
});
