/**
 * The run-health gate against an independent oracle: traces built from a random set of injected
 * defects (one per item) fail exactly the items of the defects that are not switched off, and
 * `measure` errors exactly the unhealthy trials — never counting one as a pass.
 */
import fc from "fast-check";
import { describe, expect as vexpect, it } from "vitest";
import { assessHealth, HEALTH_ITEMS, measure, notTool, validateHealthSwitches, type HealthExpectations, type HealthItemName, type Trace } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 150);

/** A trace (and what it is held to) with exactly the defects named, built from the items' evidence as the docs state it. */
function withDefects(defects: ReadonlySet<HealthItemName>): { trace: Trace; expected: HealthExpectations } {
  const errors: { kind: string; message: string }[] = [];
  if (defects.has("plugins-loaded")) errors.push({ kind: "plugin-not-loaded", message: "claude did not load the plugin at /p" });
  if (defects.has("model-asked")) errors.push({ kind: "no-model-request", message: "the model was never asked" });
  const trace = makeTrace({
    complete: !defects.has("claude-ran"),
    ...(defects.has("within-limits") ? { outcome: { subtype: "error_max_turns", isError: true } } : { outcome: { subtype: "success", isError: false } }),
    source: {
      kind: "harness",
      mcpServers: [{ name: "fs", status: defects.has("mcp-servers-connected") ? "failed" : "connected" }],
      skills: ["plug:tidy", "other"],
      agents: ["general-purpose", "plug:reviewer"],
    },
    hooks: defects.has("hooks-ok") ? [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 1, outcome: "error", blocked: false, output: "", at: 0 }] : [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 2, outcome: "error", blocked: true, output: "no", at: 0 }],
    errors,
  });
  const expected: HealthExpectations = {
    mcpServers: ["fs"],
    skills: defects.has("skills-loaded") ? ["tidy", "missing-skill"] : ["tidy"],
    agents: defects.has("agents-loaded") ? ["reviewer", "reviewr"] : ["reviewer"],
    ...(defects.has("script-consumed") ? { unusedTurns: [{ agent: "main", remaining: 2 }] } : {}),
  };
  return { trace, expected };
}

const itemSet = fc.uniqueArray(fc.constantFrom(...HEALTH_ITEMS)).map((a) => new Set(a));

describe("run health against an oracle of injected defects", () => {
  it("fails exactly the defective items that are on; ok iff none", () => {
    fc.assert(
      fc.property(itemSet, itemSet, (defects, off) => {
        const { trace, expected } = withDefects(defects);
        const switches = Object.fromEntries([...off].map((n) => [n, `reason for ${n}`]));
        const health = assessHealth(trace, expected, switches);
        for (const item of health.items) {
          const want = off.has(item.name) ? "off" : defects.has(item.name) ? "failed" : "ok";
          vexpect([item.name, item.status]).toEqual([item.name, want]);
          if (item.status === "failed") vexpect(item.message && item.fix).toBeTruthy();
        }
        vexpect(health.ok).toBe([...defects].every((d) => off.has(d)));
      }),
      { numRuns: RUNS },
    );
  });

  it("measure errors exactly the unhealthy trials, and none of them counts for a negative check", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemSet, { minLength: 1, maxLength: 8 }), async (trials) => {
        const report = await measure({
          trials: trials.length,
          checks: [notTool("Bash")],
          progress: false,
          run: (i) => {
            const { trace, expected } = withDefects(trials[i]!);
            return { ...trace, health: assessHealth(trace, expected) };
          },
        });
        const unhealthy = trials.filter((d) => d.size > 0).length;
        vexpect(report.trials.errored).toBe(unhealthy);
        vexpect(report.checks[0]!.passes).toBe(trials.length - unhealthy);
        vexpect(report.errors.every((e) => e.code === "RUN_UNHEALTHY")).toBe(true);
        vexpect(report.health?.unhealthy ?? 0).toBe(unhealthy);
        for (const name of HEALTH_ITEMS) vexpect(report.health?.items[name] ?? 0).toBe(trials.filter((d) => d.has(name)).length);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it("switches are valid iff every key is an item and every reason a non-blank string", () => {
    const key = fc.oneof(fc.constantFrom(...HEALTH_ITEMS), fc.string());
    const reason = fc.oneof(fc.string(), fc.constant(""), fc.constant("  "), fc.integer(), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(fc.dictionary(key, reason), (switches) => {
        const valid = Object.entries(switches).every(([k, v]) => (HEALTH_ITEMS as readonly string[]).includes(k) && typeof v === "string" && v.trim() !== "");
        let threw = false;
        try {
          validateHealthSwitches(switches, "health");
        } catch (error) {
          threw = true;
          vexpect((error as { code?: string }).code).toBe("INVALID_INPUT");
        }
        vexpect(threw).toBe(!valid);
      }),
      { numRuns: RUNS },
    );
  });
});
