/**
 * A replay that ends before the recording did is a divergence: when the recorded Stop hook made the
 * agent go on and the replay's world no longer does, the recording's last turn is never asked for,
 * and the run must not read as a match.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness, runReplay, type HarnessSpec } from "../../harness/index.js";
import { evalChecks, replayMatches, type Trace } from "../../src/index.js";

const examples = new URL("../../examples", import.meta.url).pathname;
const base = { cwd: examples, fixture: "./fixtures/app", plugins: ["./plugin"] } as const;
const spec: HarnessSpec = {
  ...base,
  prompt: "Look around",
  script: { turns: [{ tools: [{ name: "Bash", input: { command: "ls" } }] }, { text: "Done." }, { text: "Summary: listed the project." }] },
};

let dir: string;
let recording: string;
let recorded: Trace;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-attack-stop-"));
  const run = await runHarness(spec);
  recorded = run.trace;
  recording = join(dir, "run.jsonl");
  writeFileSync(recording, run.stdout);
  await run.cleanup();
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("runReplay: a run that ends before its recording", () => {
  it("a Stop hook that no longer blocks is a divergence", async () => {
    expect(recorded.hooks.some((h) => h.event === "Stop" && h.blocked)).toBe(true);
    expect(recorded.output).toMatch(/^Summary:/);
    const plugin = join(dir, "plugin");
    cpSync(join(examples, "plugin"), plugin, { recursive: true });
    writeFileSync(join(plugin, "hooks", "require-summary.mjs"), "process.stdin.resume();\nprocess.stdin.on('end', () => process.exit(0));\n");
    const { trace, cleanup } = await runReplay({ ...base, plugins: [plugin], recording });
    await cleanup();
    expect(trace.output).toBe("Done.");
    const [r] = evalChecks(trace, [replayMatches()]);
    expect(r.pass).toBe(false);
  });
});
