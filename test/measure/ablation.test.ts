/** Ablation: which part a spec loses, and the comparison of the two arms' reports. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { measure, tool, validateCheckReport } from "../../src/index.js";
import { ablateSpec, compareAblation, formatAblationCheck, parseComponent } from "../../src/measure/ablation.js";
import { makeTrace } from "../helpers/trace.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-ablation-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ablateSpec", () => {
  const plugin = join(dir, "some-folder");
  mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
  writeFileSync(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "tidy" }));
  const spec = {
    prompt: "p",
    plugins: [plugin, "./other"],
    skills: { a: "A", b: "B" },
    agents: { reviewer: "R" },
    settings: { hooks: { PreToolUse: [], Stop: [] }, model: "x" },
    mcpConfig: { mcpServers: { memory: { command: "m" }, files: { command: "f" } } },
  };

  it("drops a plugin by its manifest name or folder name, and only that", () => {
    expect(ablateSpec(spec, parseComponent("plugin:tidy")).plugins).toEqual(["./other"]);
    expect(ablateSpec(spec, parseComponent("plugin:other")).plugins).toEqual([plugin]);
  });

  it("drops a skill, an agent, a hook event, an MCP server — leaving the rest as it was", () => {
    expect(ablateSpec(spec, parseComponent("skill:a")).skills).toEqual({ b: "B" });
    expect(ablateSpec(spec, parseComponent("agent:reviewer")).agents).toEqual({});
    expect(ablateSpec(spec, parseComponent("hook:Stop")).settings).toEqual({ hooks: { PreToolUse: [] }, model: "x" });
    expect(ablateSpec(spec, parseComponent("mcp:memory")).mcpConfig).toEqual({ mcpServers: { files: { command: "f" } } });
    expect(spec.skills).toEqual({ a: "A", b: "B" }); // not mutated
  });

  it("a component the spec lacks is an error naming what is there (a typo must not compare a run with itself)", () => {
    expect(() => ablateSpec(spec, parseComponent("plugin:tidyy"))).toThrow(/no plugin "tidyy" to remove/);
    expect(() => ablateSpec(spec, parseComponent("hook:PostToolUse"))).toThrow(/settings.hooks: "PreToolUse", "Stop"/);
    expect(() => ablateSpec({ prompt: "p", mcpConfig: "mcp.json" }, parseComponent("mcp:x"))).toThrow(/give it inline/);
    expect(() => parseComponent("plugin")).toThrow(/not a component to ablate/);
    expect(() => parseComponent("tool:Bash")).toThrow(/not a component to ablate/);
  });
});

describe("compareAblation", () => {
  const bash = makeTrace({ calls: [{ name: "Bash", input: { command: "ls" } }] });
  const read = makeTrace({ calls: [{ name: "Read", input: { file_path: "a" } }] });
  const arm = (name: string, passes: number, n: number) => measure({ name, run: (i) => (i < passes ? bash : read), checks: [tool("Bash")], trials: n, progress: false });

  it("3/3 vs 0/3: +100 points, Fisher p = 0.10, not significant; the report with the field still validates", async () => {
    const info = compareAblation(await arm("e", 3, 3), await arm("e [without plugin:x]", 0, 3), "plugin:x");
    const c = info.checks[0]!;
    expect(c).toMatchObject({ label: "tool(Bash)", delta: 1, significant: false, with: { passes: 3, n: 3 }, without: { passes: 0, n: 3 } });
    expect(c.pValue).toBeCloseTo(0.1, 12);
    expect(info.withoutReport).toBe("e [without plugin:x]");
    expect(formatAblationCheck(c, info)).toContain("+100 pts (3/3 with vs 0/3 without");
    validateCheckReport({ ...(await arm("e", 3, 3)), ablation: info });
  });

  it("20/20 vs 5/20 is significant; the plan for a given delta uses it instead of the observed one", async () => {
    const a = await arm("e", 20, 20);
    const b = await arm("w", 5, 20);
    const info = compareAblation(a, b, "skill:s", { detect: 0.2 });
    expect(info.checks[0]).toMatchObject({ delta: 0.75, significant: true });
    expect(info.checks[0]!.trialsPerArm).toBeGreaterThan(40);
    expect(() => compareAblation(a, b, "skill:s", { detect: 0 })).toThrow(/detect must be/);
  });
});
