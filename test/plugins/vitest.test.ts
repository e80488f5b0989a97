/** The vitest matchers, under vitest itself. */
import { describe, expect, it } from "vitest";
import "../../src/plugins/vitest.js";
import { blocked, notTool, onlyTools, tool, type HookRunResult } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const trace = makeTrace({ calls: [{ name: "Read" }, { name: "Bash", input: { command: "rm -rf /" } }] });

describe("proctor/vitest", () => {
  it("toPass and toPassAll pass when the checks hold", () => {
    expect(trace).toPass(tool("Read"));
    expect(trace).toPassAll([tool("Read"), tool("Bash")]);
  });

  it("toPassAll fails listing every failed check with its message", () => {
    expect(() => expect(trace).toPassAll([tool("Read"), notTool("Bash"), onlyTools(["Read"])])).toThrowError(
      /2 of 3 checks failed:\n {2}✗ notTool\(Bash\)\n {6}expected no call to Bash; found 1:[\s\S]*✗ onlyTools\(\["Read"\]\)/,
    );
  });

  it("toPass fails with the check's message", () => {
    expect(() => expect(trace).toPass(tool("Edit"))).toThrowError("✗ tool(Edit)\n  expected a call to Edit; the agent made Read, Bash (2 calls)");
  });

  it(".not is handled by vitest, with a message saying the check passed", () => {
    expect(trace).not.toPass(tool("Edit"));
    expect(() => expect(trace).not.toPass(tool("Read"))).toThrowError("expected tool(Read) to fail, but it passed");
    expect(() => expect(trace).not.toPassAll([tool("Read")])).toThrowError("expected at least one of 1 checks to fail");
  });

  it("works on hook results too", () => {
    const hook: HookRunResult = { ran: true, event: "PreToolUse", command: "x", exitCode: 2, stdout: "", stderr: "no", timedOut: false, durationMs: 1, blocked: true, blockedBy: ["exit-2"] };
    expect(hook).toPass(blocked());
  });

  it("refuses an empty list and a non-check", () => {
    expect(() => expect(trace).toPassAll([])).toThrowError("an empty list asserts nothing");
    expect(() => expect(trace).toPass("Bash" as never)).toThrowError("needs a proctor check");
  });
});
