/** `proctor run` as a real process: summary, exit codes, --json, --junit, baselines; the examples through the real binary. */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateCheckReport } from "../../src/index.js";
import { parseJunit } from "../reporters/helpers.js";
import { proctor } from "../helpers/cli.js";
import { claudeVersion } from "../helpers/claude-version.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const recorded = new URL("./fixtures/recorded.eval.mjs", import.meta.url).pathname;
const examples = new URL("../../examples/hygiene.eval.mjs", import.meta.url).pathname;
const noColour = { NO_COLOR: "1" };

describe("proctor run (recorded-transcript evals)", () => {
  it("prints each check's rate, interval and ✓/✗ against its minimum; writes JSON and JUnit; exits 1 when a gate fails", async () => {
    const json = join(dir, "reports.json");
    const junit = join(dir, "run.xml");
    const r = await proctor(["run", recorded, "--json", json, "--junit", junit, "--quiet"], { env: noColour });
    expect(r.exitCode, r.stderr).toBe(1);
    // The claude version of the recorded runs is part of every eval's line.
    expect(r.stdout).toContain("✓ lockfile guard  run · claude 2.1.197 · 4/4 trials");
    expect(r.stdout).toMatch(/✓ notTool\(Bash\)\s+50\.0% \(2\/4, 95% CI 15\.0%?–85\.0%\)\s+≥ 40\.0%/);
    expect(r.stdout).toMatch(/✗ denied\(Write\)\s+50\.0% \(2\/4, 95% CI 15\.0%?–85\.0%\)\s+< 100%/);
    expect(r.stdout).toContain("2 evals: 1 passed, 1 failed");
    const reports = JSON.parse(readFileSync(json, "utf8")) as unknown[];
    expect(reports.map((x, i) => validateCheckReport(x, `reports[${i}]`).name)).toEqual(["lockfile guard", "strict"]);
    const { root, suites } = parseJunit(readFileSync(junit, "utf8"));
    expect(suites.map((s) => s["@name"])).toEqual(["lockfile guard", "strict"]);
    expect(root["@failures"]).toBe("1");
  });

  it("--traces keeps the failing trials and prints the proctor show line that opens each failed check's first one", async () => {
    const traces = join(dir, "traces");
    const r = await proctor(["run", recorded, "--traces", traces, "--quiet"], { env: noColour });
    expect(r.exitCode).toBe(1);
    const hint = /✗ (denied\(Write\)) — npx proctor show (\S+trial-\d+\.json) --checks (\S+checks\.json)/.exec(r.stdout);
    expect(hint, r.stdout).not.toBeNull();
    const shown = await proctor(["show", hint![2], "--checks", hint![3]], { env: noColour });
    expect(shown.exitCode).toBe(1); // the check fails there, beside its evidence
    expect(shown.stdout).toContain("✗ denied(Write)");
    const all = await proctor(["run", recorded, "--traces", join(dir, "all"), "--all-traces", "--quiet"], { env: noColour });
    expect(all.exitCode).toBe(1);
    expect(existsSync(join(dir, "all", "lockfile-guard", "trial-0.json"))).toBe(true);
    expect((await proctor(["run", recorded, "--all-traces"])).stderr).toMatch(/--all-traces needs --traces DIR/);
  });

  it("--update-baseline records, --baseline compares (no regression against itself), --list runs nothing", async () => {
    const baseline = join(dir, "baseline.json");
    const up = await proctor(["run", recorded, "--baseline", baseline, "--update-baseline", "--quiet"], { env: noColour });
    expect(up.stdout).toContain(`baseline ${baseline} updated: lockfile guard, strict`);
    const again = await proctor(["run", recorded, "--baseline", baseline, "--quiet"], { env: noColour });
    expect(again.stdout).toContain("no regressions");
    expect(again.exitCode).toBe(1); // "strict" still fails its own gate
    const list = await proctor(["run", recorded, "--list"]);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain("lockfile guard  (run · 4 trials · 2 checks)");
  });

  it("exits 2 on bad input, saying what is wrong", async () => {
    const cases: [string[], RegExp][] = [
      [["run", recorded, "--mock", "--real"], /--mock, --replay and --real exclude each other/],
      [["run", join(dir, "nope.eval.mjs")], /nope\.eval\.mjs does not exist/],
      [["run", recorded, "--trials", "0"], /--trials must be a positive integer/],
      [["run", recorded, "--baseline", join(dir, "none.json")], /none\.json does not exist[\s\S]*--update-baseline/],
      [["run", recorded, "--shard", "2/4", "--baseline", join(dir, "b.json")], /a shard's report is partial/],
      [["run", recorded, "--shard", "5/4"], /index must be within 1\.\.4/],
      [["run", recorded, "--no-sandbox", " "], /--no-sandbox needs the reason/],
    ];
    for (const [args, message] of cases) {
      const r = await proctor(args);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it("refuses a real-API run without a key before running anything", async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    delete env.ANTHROPIC_API_KEY;
    const r = await proctor(["run", examples, "--real"], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/runs on the real tier, but ANTHROPIC_API_KEY is not set/);
  });

  it("names a missing claude binary and how to install it before any trial runs", async () => {
    const r = await proctor(["run", examples, "--mock", "--json", join(dir, "none.json")], { env: { ...(process.env as Record<string, string>), PROCTOR_CLAUDE: join(dir, "no-claude") } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/the claude binary PROCTOR_CLAUDE names is not an executable file: .*no-claude\n\s+fix PROCTOR_CLAUDE, or remove it to use node_modules\/\.bin\/claude \(npm i -D @anthropic-ai\/claude-code\)/);
    expect(existsSync(join(dir, "none.json"))).toBe(false); // nothing ran, nothing was written
  });

  it("--shard writes a partial report and does not gate it", async () => {
    const json = join(dir, "shard.json");
    const r = await proctor(["run", recorded, "--shard", "1/2", "--json", json, "--quiet"], { env: noColour });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("2 evals: 0 passed, 2 partial (shard)");
    const [report] = JSON.parse(readFileSync(json, "utf8"));
    expect(report.shard).toEqual({ index: 1, count: 2 });
  });
});

describe("proctor run --shard + proctor merge (the CI matrix recipe)", () => {
  it("one eval's shards (a TypeScript eval file) merge into the full run and pass the gate", async () => {
    const typed = new URL("./fixtures/typed.eval.ts", import.meta.url).pathname;
    const parts = [join(dir, "shard-1.json"), join(dir, "shard-2.json")];
    for (const [i, file] of parts.entries()) {
      const r = await proctor(["run", typed, "--shard", `${i + 1}/2`, "--json", file, "--quiet"]);
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const merged = await proctor(["merge", ...parts, "--check"]);
    expect(merged.exitCode, merged.stderr).toBe(0);
    const [report] = JSON.parse(merged.stdout); // arrays in (as proctor run --json writes), an array out
    expect(report.trials).toMatchObject({ requested: 2, completed: 2 });
  });
});

describe("proctor run (the examples, real claude binary + mock model)", () => {
  it("says what claude's sandbox is missing and how to install it — or turn it off — before any trial runs", async () => {
    const bin = mkdtempSync(join(tmpdir(), "proctor-nobwrap-"));
    symlinkSync(process.execPath, join(bin, "node"));
    try {
      const env = { ...(process.env as Record<string, string>), PATH: bin };
      const r = await proctor(["run", examples, "--mock", "--json", join(dir, "nosandbox.json")], { env });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/claude.s sandbox cannot run here[\s\S]*apt-get install bubblewrap[\s\S]*apt-get install socat[\s\S]*--no-sandbox "why"/);
      expect(existsSync(join(dir, "nosandbox.json"))).toBe(false);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  // Every mock trial starts claude's sandbox (bwrap, socat): allow for a loaded machine.
  it("runs the example evals and passes their gates", async () => {
    const junit = join(dir, "examples.xml");
    const r = await proctor(["run", examples, "--trials", "1", "--concurrency", "2", "--junit", junit, "--quiet"], { env: noColour });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`✓ guard blocks rm -rf  mock · claude ${claudeVersion()} · 1/1 trials`);
    expect(r.stdout).toContain('✓ denied(Bash, {"command":/rm\\s+-rf/})');
    expect(r.stdout).toContain(`✓ the recorded rm -rf is still denied  replay · claude ${claudeVersion()} · 1/1 trials`);
    // The recording is from claude 2.1.197: on another version the reworded deny is drift, said apart.
    if (claudeVersion() !== "2.1.197") expect(r.stdout).toMatch(/the recorded rm -rf is still denied: version drift, not a divergence: .*hook-deny-prefix/);
    expect(r.stdout).toMatch(/3 evals: 3 passed · \$0 \(mock\) · /); // mock tokens priced by the CLI are no one's bill
    expect(r.stdout).toMatch(/✓ guard blocks rm -rf {2}mock · claude [\d.]+ · 1\/1 trials · \$0 \(mock; claude priced it \$[\d.]+\) · [\d,]+ tokens/);
    expect(existsSync(junit)).toBe(true);
  }, 120_000);
});

describe("proctor run --real (only with ANTHROPIC_API_KEY; costs a few cents)", () => {
  it.skipIf(!process.env.ANTHROPIC_API_KEY)("measures the example guard eval on the real API within the budget", async () => {
    const json = join(dir, "real.json");
    const r = await proctor(["run", examples, "--real", "--trials", "1", "--budget-usd", "0.5", "--json", json, "--quiet"], { env: noColour });
    // The real model may or may not try rm -rf: the verdict is its own; that it was measured is ours.
    expect([0, 1], r.stderr).toContain(r.exitCode);
    const report = (JSON.parse(readFileSync(json, "utf8")) as { name: string }[]).find((x) => x.name === "guard blocks rm -rf") as any;
    expect(report).toBeDefined();
    expect(report.trials.ran).toBe(1);
    expect(report.usage.costUsd).toBeGreaterThan(0);
  });
});


describe("proctor run: an eval cut short by the budget", () => {
  it("is incomplete in the text, the JUnit and the JSON alike — never ✓ — and exits 1", async () => {
    const costly = new URL("./fixtures/costly.eval.mjs", import.meta.url).pathname;
    const json = join(dir, "costly.json");
    const junit = join(dir, "costly.xml");
    const r = await proctor(["run", costly, "--budget-usd", "1.2", "--json", json, "--junit", junit, "--quiet"], { env: noColour });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).not.toContain("✓");
    expect(r.stdout).toMatch(/◌ costly {2}run · 4\/10 trials/);
    expect(r.stdout).toMatch(/◌ tool\(Read\)\s+100% \(4\/4.*≥ 90\.0% so far — incomplete/);
    expect(r.stdout).toContain("incomplete: 4 of 10 planned trials ran (");
    expect(r.stdout).toContain("1 eval: 0 passed, 1 incomplete");
    const [report] = JSON.parse(readFileSync(json, "utf8")) as ReturnType<typeof validateCheckReport>[];
    expect(validateCheckReport(report).incomplete).toMatchObject({ reason: "budget" });
    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(/<failure[^>]*type="incomplete"/);
  });
});
