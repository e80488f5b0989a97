/** `proctor run` with an unhealthy trial: exit 1, the summary line, JUnit's <error>, the report's health fields; switched off with a reason, the trial goes to its checks. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateCheckReport } from "../../src/index.js";
import { proctor } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-health-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const evals = new URL("./fixtures/unhealthy.eval.mjs", import.meta.url).pathname;

describe("proctor run: run health", () => {
  it("an unhealthy trial fails the eval as an error, in the summary, JUnit and the JSON report", async () => {
    const json = join(dir, "reports.json");
    const junit = join(dir, "run.xml");
    const r = await proctor(["run", evals, "--json", json, "--junit", junit, "--quiet"], { env: { NO_COLOR: "1" } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ guard .*\n[\s\S]*run health: 1 trial did not happen as designed \(model-asked ×1\) — fix: find what ended the run/);
    // Switched off, the trial is judged by its checks — and notTool still refuses to call a run the model never spoke in a pass.
    expect(r.stdout).toMatch(/✗ guard, model-asked off[^\n]*\n\s+✗ notTool\(Bash\)\s+50\.0%/);
    const [guard, off] = (JSON.parse(readFileSync(json, "utf8")) as unknown[]).map((x, i) => validateCheckReport(x, `reports[${i}]`));
    expect(guard?.health).toEqual({ unhealthy: 1, items: { "model-asked": 1 } });
    expect(off?.health).toBeUndefined();
    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(/<testcase classname="guard" name="run health"[\s\S]*?<error message="1 of 2 trials did not happen as designed \(model-asked ×1\)/);
    expect(xml).toMatch(/<testcase classname="guard" name="notTool\(Bash\)"[^>]*>\s*<properties>/);
    expect(off?.trials.errored).toBe(0);
  });
});
