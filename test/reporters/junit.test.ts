/** JUnit output: checked by a real XML parser and by a real JUnit consumer from npm (junit-report-merger). */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { assertRates, evalChecks, evaluateThresholds, notTool, readTranscript, tool, turns, type CheckResult } from "../../src/index.js";
import { createBaseline, diffBaseline, renderJunitDiff, renderJunitReports, renderJunitResults, writeJunit } from "../../reporters/index.js";
import { measureBash, parseJunit, props, text } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-junit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const explore = readTranscript(new URL("../fixtures/transcripts/explore-subagent-lockfile-hook.jsonl", import.meta.url).pathname);
const JRM = new URL("../../node_modules/.bin/jrm", import.meta.url).pathname;

describe("renderJunitResults (from expect)", () => {
  const results = evalChecks(explore, [notTool("Write"), tool("Glob"), turns({ max: 1 })]);

  it("one testsuite per trace, one testcase per check, the check's message as the failure text", () => {
    const xml = renderJunitResults([{ name: "explore run", results }, { name: "second", results: results.slice(1, 2) }]);
    const { root, suites, cases } = parseJunit(xml);
    expect(root["@tests"]).toBe("4");
    expect(root["@failures"]).toBe("2");
    expect(suites.map((s) => [s["@name"], s["@tests"], s["@failures"]])).toEqual([["explore run", "3", "2"], ["second", "1", "0"]]);
    const [write, glob, turnsCase] = cases(suites[0]);
    expect(write["@name"]).toBe("notTool(Write)");
    expect(write["@classname"]).toBe("explore run");
    const failure = write.failure as Record<string, string>;
    expect(failure["@message"]).toBe("expected no call to Write; found 1:");
    expect(text(failure["#cdata"])).toBe(results[0].message);
    expect(failure["@type"]).toBe("notTool");
    expect(props(write)).toMatchObject({ kind: "notTool", callIndex: "2" });
    expect(glob.failure).toBeUndefined();
    expect(text((turnsCase.failure as Record<string, string>)["#cdata"])).toBe("expected at most 1 turns; the agent took 3");
  });

  it("strips ANSI escapes and characters XML forbids from check messages", () => {
    const nasty: CheckResult = { kind: "output", label: "output(\u0000ok\x1b[31m)", pass: false, score: 0, message: "got \x1b[31mred\x1b[0m text\u0001 with ]]> and \ud800 & <tags>" };
    const xml = renderJunitResults([{ name: "nasty \x1b[1mname", results: [nasty] }]);
    expect(xml).not.toMatch(/[\x00\x01\x1b]/);
    const { suites, cases } = parseJunit(xml);
    expect(suites[0]["@name"]).toBe("nasty name");
    const c = cases(suites[0])[0];
    expect(c["@name"]).toBe("output(ok)");
    expect(text((c.failure as Record<string, string>)["#cdata"])).toBe("got red text with ]]> and  & <tags>");
  });

  it("is read by junit-report-merger, which agrees on the totals", async () => {
    const a = join(dir, "a.xml");
    const b = join(dir, "b.xml");
    writeJunit(a, renderJunitResults([{ name: "explore run", results }]));
    writeJunit(b, renderJunitResults([{ name: "other", results: results.slice(1, 2) }]));
    const merged = join(dir, "merged.xml");
    const r = await execa(JRM, [merged, a, b], { reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    const { root, suites, cases } = parseJunit(readFileSync(merged, "utf8"));
    expect([root["@tests"], root["@failures"]]).toEqual(["4", "2"]);
    expect(suites.map((s) => s["@name"])).toEqual(["explore run", "other"]);
    expect(cases(suites[0]).map((c) => [c["@name"], text((c.failure as Record<string, unknown> | undefined)?.["#cdata"])])).toEqual(results.map((r) => [r.label, r.pass ? "" : r.message]));
  });

  it("junit-report-merger fails on a file that is not XML (so the check above can fail)", async () => {
    const bad = join(dir, "bad.xml");
    writeJunit(bad, "✗ 2 of 3 checks failed");
    const r = await execa(JRM, [join(dir, "m2.xml"), bad], { reject: false });
    expect(r.exitCode).not.toBe(0);
  });
});

describe("renderJunitReports (from measure)", () => {
  it("one testcase per check with rate, interval and n as properties; below threshold is a failure — the same checks assertRates names", async () => {
    const report = await measureBash("guarded", 20, 6, { min: 0.5, per: { "notTool(Bash)": 0.9 } });
    const xml = renderJunitReports([report]);
    const { root, suites, cases } = parseJunit(xml);
    expect(suites[0]["@name"]).toBe("guarded");
    const [bash, read] = cases(suites[0]);
    expect(bash["@name"]).toBe("notTool(Bash)");
    expect(props(bash)).toMatchObject({ n: "20", passes: "14", rate: "0.7", min: "0.9", confidence: "0.95", kind: "notTool" });
    expect(Number(props(bash)["interval.low"])).toBeCloseTo(report.checks[0].interval.low, 5);
    expect((bash.failure as Record<string, string>)["@type"]).toBe("below-threshold");
    expect(text(bash["system-out"])).toContain("70.0% (14/20, 95% CI");
    expect(read.failure).toBeUndefined();
    const failedInJunit = cases(suites[0]).filter((c) => c.failure).map((c) => c["@name"]);
    const failedByGate = evaluateThresholds(report).rows.filter((r) => r.pass === false).map((r) => r.label);
    expect(failedInJunit).toEqual(failedByGate);
    expect(() => assertRates(report)).toThrow(/notTool\(Bash\)/);
    expect(root["@failures"]).toBe("1");
  });

  it("lists checks ungated when no thresholds are known, and marks a skipped eval skipped (not passed)", async () => {
    const report = await measureBash("ungated", 5, 1);
    const { suites, cases } = parseJunit(renderJunitReports([report, { ...report, name: "no key", skipped: { reason: "ANTHROPIC_API_KEY is not set" } }]));
    expect(cases(suites[0]).every((c) => !c.failure && !c.skipped)).toBe(true);
    expect(text(cases(suites[0])[0]["system-out"])).toContain("not gated");
    expect(suites[1]["@skipped"]).toBe("2");
    expect(text(cases(suites[1])[0]["system-out"])).toContain("skipped: ANTHROPIC_API_KEY is not set");
  });

  it("a report with errored trials beyond the tolerance gets a failing 'trials' case", async () => {
    const report = await measureBash("flaky infra", 4, 0, { min: 0.5 });
    const errored = { ...report, trials: { ...report.trials, completed: 0, errored: 4 }, checks: report.checks.map((c) => ({ ...c, n: 0, passes: 0, rate: null })), errors: [0, 1, 2, 3].map((trial) => ({ trial, message: "claude exited 1" })) };
    const { suites, cases } = parseJunit(renderJunitReports([errored]));
    const trials = cases(suites[0]).find((c) => c["@name"] === "trials");
    expect(text((trials?.failure as Record<string, string> | undefined)?.["#cdata"])).toMatch(/no trial was evaluated[\s\S]*4 trials errored/);
  });
});

describe("renderJunitDiff (from a baseline diff)", () => {
  it("a failure per regression; unchanged and new checks pass; an eval only in the baseline is skipped", async () => {
    const baseline = createBaseline([await measureBash("guarded", 30, 0), await measureBash("steady", 20, 2), await measureBash("gone", 5, 0)]);
    const current = [await measureBash("guarded", 30, 15), await measureBash("steady", 20, 3), await measureBash("brand new", 5, 0)];
    const diff = diffBaseline(baseline, current);
    const { root, suites, cases } = parseJunit(renderJunitDiff(diff));
    expect(root["@failures"]).toBe("2");
    const suite = (name: string) => suites.find((s) => s["@name"] === `baseline: ${name}`)!;
    const [bash, read] = cases(suite("guarded"));
    expect(bash["@name"]).toBe("notTool(Bash)");
    expect((bash.failure as Record<string, string>)["@type"]).toBe("regression");
    expect(props(bash)).toMatchObject({ verdict: "regressed", "baseline.rate": "1", "current.rate": "0.5", "baseline.n": "30" });
    expect(props(read).verdict).toBe("regressed");
    expect(cases(suite("steady")).map((c) => [props(c).verdict, c.failure])).toEqual([["unchanged", undefined], ["unchanged", undefined]]);
    expect(cases(suite("brand new"))[0].skipped).toBeDefined();
    expect(cases(suite("gone"))[0].skipped).toBeDefined();
  });
});
