/** The vitest matchers, under vitest itself. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
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

describe("proctor/vitest in a project of its own", () => {
  it("loads what a safety check rebuilt from JSON needs before the tests run, so toPass(checkFromJSON({kind: \"purity\"})) judges", () => {
    // A fresh vitest run of the built package, without this repository's setup file (which
    // preloads the same things): only the plugin's own beforeAll can have loaded them.
    const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
    const cache = path.join(root, "node_modules", ".cache");
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(path.join(cache, "proctor-vitest-plugin-"));
    try {
      writeFileSync(path.join(dir, "vitest.config.mjs"), 'export default { test: { include: ["*.test.mjs"], exclude: [] } };\n');
      writeFileSync(
        path.join(dir, "purity.test.mjs"),
        `import { expect, it } from "vitest";
import ${JSON.stringify(path.join(root, "dist/src/plugins/vitest.js"))};
import { checkFromJSON } from ${JSON.stringify(path.join(root, "dist/src/index.js"))};
const trace = (command) => ({ version: 1, source: { kind: "synthetic" }, complete: true, subagents: [], skills: [], hooks: [], replies: [], errors: [], toolCalls: [{ id: "1", name: "Bash", input: { command }, status: "success", agent: "main" }] });
it("judges purity rebuilt from JSON", () => {
  expect(trace("ls | wc -l")).toPass(checkFromJSON({ kind: "purity", level: "bounded" }));
  expect(trace("rm -rf build")).not.toPass(checkFromJSON({ kind: "purity", level: "bounded" }));
  expect(trace("rm -rf build")).toPassAll([checkFromJSON({ kind: "lethalTrifecta", tools: ["Read"] })]);
});
`,
      );
      const out = execFileSync(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", "vitest.config.mjs"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      expect(out).toMatch(/1 passed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
