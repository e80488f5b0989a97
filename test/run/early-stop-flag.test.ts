/**
 * `proctor run --early-stop` turns on every eval's early stop, on one claude and across the version
 * matrix (`--claude`). The eval produces its trials with run(), so no claude session is spawned.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { proctor } from "../helpers/cli.js";

const INDEX = new URL("../../dist/src/index.js", import.meta.url).pathname;
const CLAUDE = new URL("../../node_modules/.bin/claude", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "proctor-early-flag-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "always.eval.mjs");
const trace = {
  version: 1,
  source: { kind: "synthetic" },
  complete: true,
  toolCalls: [{ id: "t1", name: "Read", input: { file_path: "a" }, status: "success", agent: "main" }],
  subagents: [],
  skills: [],
  hooks: [],
  replies: [],
  usage: { costUsd: 0, inputTokens: 1, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0 },
  errors: [],
};
writeFileSync(
  file,
  `import { defineEval, tool } from ${JSON.stringify(INDEX)};
export default defineEval({ name: "always reads", run: () => (${JSON.stringify(trace)}), checks: [tool("Read")], thresholds: { min: 0.5 }, trials: 200 });
`,
);
const env = { ...(process.env as Record<string, string>), NO_COLOR: "1" };

describe("proctor run --early-stop", () => {
  it("stops an eval once its gate is settled; without the flag it runs every trial", async () => {
    const on = await proctor(["run", file, "--early-stop", "--quiet"], { env });
    expect(on.exitCode, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/stopped early: stopped early after 10 evaluated trials/);
    const off = await proctor(["run", file, "--quiet"], { env });
    expect(off.stdout).not.toContain("stopped early");
    expect(off.stdout).toContain("200/200 trials");
  });

  it("reaches every eval of the version matrix too", async () => {
    const r = await proctor(["run", file, "--early-stop", "--claude", CLAUDE, "--quiet"], { env });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/stopped early: stopped early after 10 evaluated trials/);
  });
});
