/**
 * Claude's deferred-tool loading is protocol, not a tool the agent chose: the same script on a claude
 * that defers MCP tools (a ToolSearch call first) and on one that does not gets the same verdicts from
 * onlyTools and from "any tool" counts; naming ToolSearch still sees it.
 */
import { describe, expect as vexpect, it } from "vitest";
import { onlyTools, tool, toolCount } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const mcpCall = { name: "mcp__plugin_tracker_issues__create", input: { title: "x" }, result: "created #1" };
const search = { name: "ToolSearch", input: { query: "select:mcp__plugin_tracker_issues__create" }, result: "loaded" };
const older = makeTrace({ calls: [mcpCall] });
const newer = makeTrace({ calls: [search, mcpCall] });

describe("ToolSearch is claude's protocol", () => {
  it("onlyTools and toolCount('*') give the same verdict with and without it", () => {
    for (const check of [onlyTools(["mcp__plugin_tracker_issues__create"]), toolCount("*", { max: 1 }), toolCount("*", { min: 1, max: 1 })]) {
      vexpect(check.eval(newer).pass, check.kind).toBe(true);
      vexpect(check.eval(older).pass, check.kind).toBe(true);
    }
  });

  it("a tool outside the set still fails onlyTools beside a ToolSearch", () => {
    const trace = makeTrace({ calls: [search, mcpCall, { name: "Bash", input: { command: "ls" }, result: "" }] });
    const r = onlyTools(["mcp__plugin_tracker_issues__create"]).eval(trace);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/outside its declared set: Bash\(ls\)/);
    vexpect(toolCount("*", { max: 1 }).eval(trace).pass).toBe(false);
  });

  it("a trace of ToolSearch alone shows no tool use: onlyTools fails closed", () => {
    const r = onlyTools(["Read"]).eval(makeTrace({ calls: [search] }));
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/fails closed/);
  });

  it("named, it is seen and counted", () => {
    vexpect(tool("ToolSearch").eval(newer).pass).toBe(true);
    vexpect(toolCount("ToolSearch", { max: 0 }).eval(newer).pass).toBe(false);
  });
});
