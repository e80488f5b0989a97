/** The claude version is part of every verdict: JUnit records it, and comparing across versions says so. */
import { describe, expect, it } from "vitest";
import { compareReports, defineEval, measure, notTool, type CheckReport } from "../../src/index.js";
import { RunError } from "../../src/errors/proctor-error.js";
import { renderJunitReports } from "../../reporters/index.js";
import { renderRunSummary } from "../../reporters/summary/run-summary.js";
import { makeTrace, usage } from "../helpers/trace.js";
import { parseJunit } from "./helpers.js";

const on = (version: string): Promise<CheckReport> =>
  measure({ name: "guard", trials: 4, checks: [notTool("Bash")], progress: false, seed: 1, run: () => makeTrace({ calls: [{ name: "Read", input: {} }], usage, source: { kind: "harness", agentVersion: version } }) });

describe("the claude version in reports", () => {
  it("JUnit carries it as a testsuite property (read back by a real XML parser)", async () => {
    const { suites } = parseJunit(renderJunitReports([await on("2.1.332")]));
    const list = (((suites[0]?.properties ?? {}) as Record<string, unknown>).property as Record<string, string>[]).map((p) => [p["@name"], p["@value"]]);
    expect(list).toContainEqual(["claudeVersion", "2.1.332"]);
  });

  it("a comparison across claude versions says so; one on the same version says nothing", async () => {
    const across = compareReports(await on("2.1.197"), await on("2.1.332"));
    expect(across.agentVersions).toMatchObject({ baseline: ["2.1.197"], candidate: ["2.1.332"] });
    expect(across.agentVersions.note).toMatch(/different claude versions: the baseline ran on claude 2\.1\.197, this run on claude 2\.1\.332/);
    expect(compareReports(await on("2.1.332"), await on("2.1.332")).agentVersions.note).toBeUndefined();
  });

  it("an eval whose trials all errored still names the claude they ran on, from their Traces", async () => {
    const harness = (v: string) => makeTrace({ source: { kind: "harness", agentVersion: v } });
    // A run that threw with its result (a HarnessError carries it), and an unhealthy run (the health gate errors it).
    const thrown = await measure({ name: "thrown", trials: 2, checks: [notTool("Bash")], progress: false, run: () => { throw Object.assign(new RunError("SCRIPT_OVERRUN", "claude run overran its script"), { result: { trace: harness("2.1.332") } }); } });
    const unhealthy = await measure({ name: "unhealthy", trials: 2, checks: [notTool("Bash")], progress: false, run: () => ({ ...harness("2.1.197"), complete: false, errors: [{ kind: "no-model-request", message: "never asked" }] }) });
    expect(thrown.trials).toMatchObject({ completed: 0, errored: 2 });
    expect(unhealthy.trials).toMatchObject({ completed: 0, errored: 2 });
    expect(thrown.metadata.agentVersions).toEqual(["2.1.332"]);
    expect(unhealthy.metadata.agentVersions).toEqual(["2.1.197"]);
    const definition = defineEval({ name: "thrown", run: () => harness("x"), checks: [notTool("Bash")] });
    const text = renderRunSummary([{ definition, tier: "mock", report: thrown, status: "failed" }], { colour: false });
    expect(text).toContain("claude 2.1.332");
    expect(text).not.toContain("claude unknown");
  });
});
