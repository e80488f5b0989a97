/** The claude version is part of every verdict: JUnit records it, and comparing across versions says so. */
import { describe, expect, it } from "vitest";
import { compareReports, measure, notTool, type CheckReport } from "../../src/index.js";
import { renderJunitReports } from "../../reporters/index.js";
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
});
