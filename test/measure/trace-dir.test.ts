/**
 * `measure({ traces })` keeps failing trials with the checks beside them: a custom check (a
 * function, which cannot travel as JSON) no longer drops the whole checks file — the others are
 * written, and the ones left out are named, so `proctor show --checks` never silently shows fewer.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checksFromJSON, custom, measure, tool, type Trace } from "../../src/index.js";
import { makeTrace, usage } from "../helpers/trace.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-trace-dir-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const withRead = makeTrace({ calls: [{ name: "Read", input: { file_path: "a" } }], usage });

describe("measure keeps failing trials with their checks", () => {
  it("writes the checks that travel and names the custom ones it left out", async () => {
    const out = join(dir, "custom");
    const mine = custom("usesBash", (t: Trace) => t.toolCalls.some((c) => c.name === "Bash"));
    await measure({ run: () => withRead, checks: [tool("Bash"), mine], trials: 2, progress: false, traces: { dir: out } });
    expect(existsSync(join(out, "trial-0.json"))).toBe(true);
    const written = JSON.parse(readFileSync(join(out, "checks.json"), "utf8"));
    expect(checksFromJSON(written).map((c) => c.label)).toEqual(["tool(Bash)"]);
    const omitted = JSON.parse(readFileSync(join(out, "checks.omitted.json"), "utf8"));
    expect(omitted).toEqual([{ label: mine.label, kind: "usesBash", why: expect.stringContaining("re-run the eval") }]);
  });

  it("writes no omitted list when every check travels", async () => {
    const out = join(dir, "plain");
    await measure({ run: () => withRead, checks: [tool("Bash")], trials: 1, progress: false, traces: { dir: out } });
    expect(existsSync(join(out, "checks.json"))).toBe(true);
    expect(existsSync(join(out, "checks.omitted.json"))).toBe(false);
  });
});
