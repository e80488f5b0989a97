/** `proctor run --forecast`: prints the outlook and runs nothing. */
import { describe, expect, it } from "vitest";
import { proctor } from "../helpers/cli.js";

const recorded = new URL("./fixtures/recorded.eval.mjs", import.meta.url).pathname;

describe("proctor run --forecast", () => {
  it("prints each eval's expected trials and the chance each check passes, runs no trial, exits 0", async () => {
    const r = await proctor(["run", recorded, "--forecast", "--trials", "20"], { env: { ...(process.env as Record<string, string>), NO_COLOR: "1" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("lockfile guard: ~20 of 20 trials · no model cost known");
    expect(r.stdout).toMatch(/notTool\(Bash\): rate 90% \(assumed\) vs minimum 40% → ~20 trials, passes its gate with chance 100%/);
    expect(r.stdout).toMatch(/strict: ~20 of 20 trials/);
    expect(r.stdout).toContain("forecast: 2 evals");
    expect(r.stdout).not.toContain("passed ·"); // no summary: nothing ran
  });

  it("--early-stop forecasts under the early stop (fewer trials than planned); an ablated eval forecasts its full trials", async () => {
    const env = { ...(process.env as Record<string, string>), NO_COLOR: "1" };
    const r = await proctor(["run", recorded, "--forecast", "--trials", "200", "--early-stop"], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const expected = Number(/lockfile guard: ~(\d+) of 200 trials/.exec(r.stdout)?.[1]);
    expect(expected).toBeLessThan(200);
    const ablated = await proctor(["run", recorded, "--forecast", "--trials", "200", "--early-stop", "--ablate", "plugin:x"], { env });
    expect(ablated.stdout).toContain("lockfile guard: ~200 of 200 trials × 2 arms");
  });

  it("forecasts a fixed mock script as deterministic, not at an assumed 90%; a script drawn per trial stays assumed", async () => {
    const examples = new URL("../../examples/hygiene.eval.mjs", import.meta.url).pathname;
    const r = await proctor(["run", examples, "--forecast", "--mock", "--trials", "50", "--early-stop"], { env: { ...(process.env as Record<string, string>), NO_COLOR: "1" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/guard blocks rm -rf: ~50 of 50 trials[^\n]*\n {4}denied\(Bash, [^\n]*\): deterministic \(a scripted mock run: every trial gives the first one's verdict\) vs minimum 100% → ~50 trials if it passes, ~\d+ if it fails/);
    expect(r.stdout).not.toMatch(/denied\(Bash, [^\n]*rate 90% \(assumed\)/);
    // mock: ({ random }) => … draws the script per trial: its rates may vary.
    expect(r.stdout).toMatch(/run-checks stays inside its tools[^\n]*\n {4}skill\(run-checks\): rate 90% \(assumed\)/);
  });
});
