import { describe, expect as vexpect, it } from "vitest";
import { ChecksFailedError, assertChecks, expect, isProctorError, notTool, onlyTools, tool, turns } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

describe("expect(trace, checks)", () => {
  const trace = makeTrace({ calls: [{ name: "Read" }, { name: "Bash", input: { command: "rm -rf /" } }], turns: 2 });

  it("throws one error listing every failure, carrying every result", () => {
    let error: unknown;
    try {
      expect(trace, [tool("Read"), notTool("Bash"), onlyTools(["Read"]), turns({ max: 5 }), tool("Edit")]);
    } catch (e) {
      error = e;
    }
    vexpect(error).toBeInstanceOf(ChecksFailedError);
    vexpect(isProctorError(error)).toBe(true);
    const failed = error as ChecksFailedError;
    vexpect(failed.results).toHaveLength(5);
    vexpect(failed.failures.map((f) => f.kind)).toEqual(["notTool", "onlyTools", "tool"]);
    vexpect(failed.message).toMatchInlineSnapshot(`
      "3 of 5 checks failed
        ✗ notTool(Bash)
            expected no call to Bash; found 1:
                #1 Bash {"command":"rm -rf /"} → success
        ✗ onlyTools(["Read"])
            agent used tool(s) outside its declared set: Bash(rm -rf /) (declared: Read)
                #1 Bash {"command":"rm -rf /"} → success
              add the tool to the declaration if it is intended, or find why the agent reached for it
        ✗ tool(Edit)
            expected a call to Edit; the agent made Read, Bash (2 calls)"
    `);
  });

  it("returns the results when every check holds; assertChecks is the same engine", () => {
    vexpect(expect(trace, [tool("Read")])).toEqual(assertChecks(trace, [tool("Read")]));
  });

  it("refuses an empty list of checks: it asserts nothing", () => {
    vexpect(() => expect(trace, [])).toThrow("needs at least one check");
  });
});
