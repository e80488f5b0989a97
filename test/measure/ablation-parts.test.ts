/**
 * What an ablation takes away, and how run health reads it: the parts of a removed plugin (or
 * skill, agent, hook event, MCP server) are expected missing in the arm without it, so a check
 * that names one fails there as the part's effect instead of erroring the trial.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { healthError } from "../../src/health/gate.js";
import { ablateSpec, parseComponent } from "../../src/measure/ablation.js";
import { describeParts, partsNamedBy, pluginParts, removedParts } from "../../src/measure/ablation-parts.js";
import { mcp, output, skill, subagent, tool } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const examples = new URL("../../examples/", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "proctor-ablation-parts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the parts a component removes", () => {
  it("a plugin: its skills and agents (bare and plugin:name), hook events and MCP servers", () => {
    expect(pluginParts(join(examples, "plugin"))).toEqual({
      skills: ["repo-hygiene:run-checks", "run-checks"],
      agents: ["repo-hygiene:reviewer", "reviewer"],
      hooks: ["PreToolUse", "Stop"],
      mcpServers: [],
    });
    const root = join(dir, "notes");
    mkdirSync(join(root, ".claude-plugin"), { recursive: true });
    writeFileSync(join(root, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "notes", hooks: { SessionStart: [{ hooks: [] }] } }));
    writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { memory: { command: "node" } } }));
    expect(pluginParts(root)).toMatchObject({ skills: [], hooks: ["SessionStart"], mcpServers: ["memory"] });
  });

  it("each kind of component, found by comparing the spec before and after ablateSpec", () => {
    const spec = {
      plugins: [join(examples, "plugin")],
      skills: { tidy: "skills/tidy" },
      agents: { rev: "---\nname: reviewer\n---\nReview." },
      settings: { hooks: { Stop: [] } },
      mcpConfig: { mcpServers: { memory: {} } },
    };
    const parts = (text: string) => {
      const c = parseComponent(text);
      return removedParts(spec, ablateSpec(spec, c), c);
    };
    expect(parts("plugin:repo-hygiene").skills).toContain("run-checks");
    expect(parts("skill:tidy")).toEqual({ skills: ["tidy"] });
    expect(parts("agent:rev")).toEqual({ agents: ["rev", "reviewer"] });
    expect(parts("hook:Stop")).toEqual({ hooks: ["Stop"] });
    expect(parts("mcp:memory")).toEqual({ mcpServers: ["memory"] });
    expect(describeParts(parts("plugin:repo-hygiene"))).toBe("skill run-checks, agent reviewer, hook PreToolUse, hook Stop");
  });

  it("which removed parts a check names", () => {
    const removed = { skills: ["repo-hygiene:run-checks", "run-checks"], agents: ["reviewer"], hooks: ["Stop"], mcpServers: ["memory"] };
    expect(partsNamedBy(skill("run-checks"), removed)).toEqual(["skill run-checks"]);
    expect(partsNamedBy(subagent("reviewer", []), removed)).toEqual(["agent reviewer"]);
    expect(partsNamedBy(mcp("memory", "read"), removed)).toEqual(["MCP server memory"]);
    expect(partsNamedBy(output(/^Summary:/m), removed)).toEqual([]);
    expect(partsNamedBy(tool("Bash"), removed)).toEqual([]);
  });
});

describe("run health in the arm without the part", () => {
  // What claude lists when the plugin is gone: no repo-hygiene skill; the Skill call failed.
  const trace = makeTrace({ calls: [{ name: "Skill", input: { skill: "run-checks" } }], source: { kind: "synthetic", cwd: "/work", skills: ["other"] } });

  it("a skill the eval names but the ablation removed is not unhealthy there; any other missing skill still is", () => {
    const checks = [skill("run-checks")];
    expect(healthError(trace, { checks })?.health.items.find((i) => i.name === "skills-loaded")?.status).toBe("failed");
    expect(healthError(trace, { checks, absent: { skills: ["repo-hygiene:run-checks", "run-checks"] } })).toBeUndefined();
    // Only what was removed is excused: a second missing skill is still a broken run.
    const both = [skill("run-checks"), skill("lint")];
    const error = healthError(trace, { checks: both, absent: { skills: ["run-checks"] } });
    expect(error?.message).toContain("skills-loaded");
    expect(error?.health.items.find((i) => i.name === "skills-loaded")?.message).toContain('"lint"');
    expect(error?.health.items.find((i) => i.name === "skills-loaded")?.message).not.toContain("run-checks");
  });

  it("a removed subagent and MCP server likewise", () => {
    const t = makeTrace({ source: { kind: "synthetic", cwd: "/work", agents: [], mcpServers: [] }, health: { ok: true, items: [], expected: { mcpServers: ["memory"] } } });
    const checks = [subagent("reviewer", [])];
    const error = healthError(t, { checks });
    expect(error?.message).toMatch(/mcp-servers-connected.*agents-loaded|agents-loaded.*mcp-servers-connected/);
    expect(healthError(t, { checks, absent: { agents: ["reviewer"], mcpServers: ["memory"] } })).toBeUndefined();
  });
});
