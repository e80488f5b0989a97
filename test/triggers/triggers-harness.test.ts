/**
 * A trigger suite end to end on the real claude binary: the mock stands in for the model's routing
 * (the script decides which prompt calls the skill), claude loads two plugins that both ship a
 * `run-checks` skill, and the report scores the routing and shows the collision.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { defineTriggerSuite, measureTriggers, renderTriggerReport } from "../../src/index.js";
import type { TurnContext } from "../../src/eval/script-types.js";

const examples = new URL("../../examples", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "proctor-triggers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A second plugin with a skill of the same name: a bare "run-checks" could mean either.
const other = join(dir, "other-hygiene");
cpSync(join(examples, "plugin"), other, { recursive: true });
rmSync(join(other, "hooks"), { recursive: true, force: true });
rmSync(join(other, "agents"), { recursive: true, force: true });
const manifest = join(other, ".claude-plugin", "plugin.json");
writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, "utf8")), name: "other-hygiene" }));

const prompt = (c: TurnContext) => c.request.messages;
/** Routing as a model might do it, over-eager on "checks": one prompt calls both plugins' skills. */
const route = (c: TurnContext) => {
  const p = prompt(c);
  if (p.includes("Run the checks twice over.")) return { tools: [{ name: "Skill", input: { skill: "repo-hygiene:run-checks" } }, { name: "Skill", input: { skill: "other-hygiene:run-checks" } }] };
  if (p.includes("Run the checks.") || p.includes("What checks exist?")) return { tools: [{ name: "Skill", input: { skill: "repo-hygiene:run-checks" } }] };
  return { tools: [{ name: "Read", input: { file_path: "notes.txt" } }] };
};

describe("measureTriggers on the real binary", () => {
  it("scores the routing and shows two plugins' skills fired by one prompt", async () => {
    const suite = defineTriggerSuite({
      name: "run-checks routing",
      target: { skill: "repo-hygiene:run-checks" },
      shouldTrigger: ["Run the checks.", "Run the checks twice over."],
      shouldNotTrigger: ["Read the notes.", "What checks exist? Do not run them."],
    });
    const report = await measureTriggers(suite, {
      run: async (p) => {
        const { trace, cleanup } = await runHarness({ cwd: examples, fixture: "./fixtures/app", plugins: ["./plugin", other], prompt: p, script: { turns: [route, { text: "Summary: done." }] } });
        await cleanup();
        return trace;
      },
      concurrency: 2,
    });
    expect(report.errored).toBe(0);
    expect([report.tp, report.fp, report.fn, report.tn]).toEqual([2, 1, 0, 1]);
    expect(report.precision).toBeCloseTo(2 / 3, 12);
    expect(report.recall).toBe(1);
    const twice = report.collisions.rows.find((r) => r.prompt.includes("twice"));
    expect(twice?.fired).toEqual({ "skill:other-hygiene:run-checks": 1, "skill:repo-hygiene:run-checks": 1 });
    expect(renderTriggerReport(report)).toContain("← collision");
  }, 180_000);
});
