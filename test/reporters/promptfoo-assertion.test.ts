/** The promptfoo assertion as promptfoo calls it: fn(output, context) → GradingResult. */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTranscript } from "../../src/index.js";
import { gradeWithChecks } from "../../reporters/index.js";

const fixture = new URL("../fixtures/transcripts/explore-subagent-lockfile-hook.jsonl", import.meta.url).pathname;
const transcript = readFileSync(fixture, "utf8");
const trace = readTranscript(fixture);
const checks = [{ kind: "notTool", name: "Write" }, { kind: "tool", name: "Glob" }, { kind: "output", matcher: { $regex: "lockfile" } }];
const dir = mkdtempSync(join(tmpdir(), "proctor-pf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("gradeWithChecks", () => {
  it("reads the Trace from the provider's metadata; pass only when all hold, score the fraction, one componentResult per check", () => {
    const r = gradeWithChecks(trace.output, { config: { checks }, providerResponse: { output: trace.output, metadata: { trace } } });
    expect(r.pass).toBe(false);
    expect(r.score).toBeCloseTo(2 / 3);
    expect(r.componentResults?.map((c) => [c.pass, c.score, c.assertion?.value])).toEqual([
      [false, 0, "proctor: notTool(Write)"],
      [true, 1, "proctor: tool(Glob)"],
      [true, 1, "proctor: output(/lockfile/)"],
    ]);
    expect(r.reason).toContain("1 of 3 proctor checks failed");
    expect(r.componentResults?.[0].reason).toContain("expected no call to Write");
    expect(r.namedScores).toEqual({ "notTool(Write)": 0, "tool(Glob)": 1, "output(/lockfile/)": 1 });
  });

  it("reads the Trace from an output that is a stream-json transcript, or a Trace object", () => {
    const passing = [{ kind: "tool", name: "Glob" }];
    expect(gradeWithChecks(transcript, { config: { checks: passing } })).toMatchObject({ pass: true, score: 1, reason: "all 1 proctor checks passed" });
    expect(gradeWithChecks(trace, { config: { checks: passing } }).pass).toBe(true);
    expect(gradeWithChecks("x", { config: { checks: passing }, providerResponse: { metadata: { trace: transcript } } }).pass).toBe(true);
  });

  it("takes checks from a JSON file path", () => {
    const file = join(dir, "checks.json");
    writeFileSync(file, JSON.stringify([{ kind: "tool", name: "Glob" }]));
    expect(gradeWithChecks(transcript, { config: { checks: file } }).pass).toBe(true);
    expect(gradeWithChecks(transcript, { config: { checks: `file://${file}` } }).pass).toBe(true);
  });

  it("fails closed, saying what to do, when there is no Trace", () => {
    const r = gradeWithChecks("Done. The type of thing was fine.", { config: { checks } });
    expect(r).toMatchObject({ pass: false, score: 0 });
    expect(r.reason).toMatch(/no Trace to check — use proctor's provider/);
  });

  it("fails the case, naming the field, for missing or bad checks", () => {
    expect(gradeWithChecks(transcript, {}).reason).toMatch(/no config\.checks/);
    expect(gradeWithChecks(transcript, { config: { checks: [] } }).reason).toMatch(/empty list asserts nothing/);
    expect(gradeWithChecks(transcript, { config: { checks: [{ kind: "tool", nmae: "Bash" }] } }).reason).toMatch(/config\.checks\[0\]/);
    expect(gradeWithChecks(transcript, { config: { checks: join(dir, "missing.json") } }).reason).toMatch(/missing\.json: ENOENT/);
  });

  it("refuses an invalid Trace in metadata rather than grading it", () => {
    const r = gradeWithChecks("", { config: { checks }, providerResponse: { metadata: { trace: { version: 1, toolCalls: "nope" } } } });
    expect(r.pass).toBe(false);
    expect(r.reason).toMatch(/the Trace is unreadable[\s\S]*toolCalls/);
  });
});
