/** `proctor merge`, as a real process: shard files in, the unsharded report out. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { measure, tool, notTool, validateCheckReport, type MeasureOptions, type Trace } from "../../src/index.js";
import { proctor } from "../helpers/cli.js";
import { parseJunit } from "../reporters/helpers.js";
import { bashSometimes, withoutClock } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-merge-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (extra: Partial<MeasureOptions<Trace>> = {}): MeasureOptions<Trace> => ({
  run: bashSometimes(0.3),
  checks: [tool("Bash"), notTool("Bash")],
  trials: 30,
  seed: 11,
  name: "bash-rate",
  thresholds: { per: { "notTool(Bash)": 0.5 } },
  progress: false,
  ...extra,
});

const shardFiles = await Promise.all(
  [1, 2, 3].map(async (i) => {
    const file = join(dir, `shard-${i}.json`);
    writeFileSync(file, JSON.stringify(await measure(options({ shard: `${i}/3` }))));
    return file;
  }),
);

describe("proctor merge", () => {
  it("writes the merged report (equal to an unsharded run) and a summary", async () => {
    const out = join(dir, "merged.json");
    const r = await proctor(["merge", ...shardFiles, "-o", out]);
    expect(r.exitCode).toBe(0);
    const merged = validateCheckReport(JSON.parse(readFileSync(out, "utf8")));
    const { shard: _s, mergedFrom, ...numbers } = withoutClock(merged);
    expect(mergedFrom).toEqual(["1/3", "2/3", "3/3"]);
    expect(numbers).toEqual(withoutClock(await measure(options())));
    expect(r.stderr).toMatch(/^merged 3 report\(s\) of bash-rate: 30 trials evaluated, 0 errored, 0 skipped, of 30 requested\n {2}tool\(Bash\): /);
  });

  it("-o makes its folders; --junit writes the merged run as JUnit, a testcase per check", async () => {
    const out = join(dir, "out", "nested", "merged.json");
    const junit = join(dir, "out", "junit", "merged.xml");
    const r = await proctor(["merge", ...shardFiles, "-o", out, "--junit", junit]);
    expect(r.exitCode, r.stderr).toBe(0);
    validateCheckReport(JSON.parse(readFileSync(out, "utf8")));
    const { suites } = parseJunit(readFileSync(junit, "utf8"));
    expect(suites.map((s) => s["@name"])).toEqual(["bash-rate"]);
  });

  it("prints to stdout without -o, and says which shards are missing", async () => {
    const r = await proctor(["merge", shardFiles[0], shardFiles[2]]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).trials.ran).toBe(20);
    expect(r.stderr).toContain("partial: missing shards 2/3 — the merge covers only part of the trials");
  });

  it("--check gates on the recorded thresholds: exit 1 with the shortfall", async () => {
    const strict = await Promise.all(
      [1, 2].map(async (i) => {
        const file = join(dir, `strict-${i}.json`);
        writeFileSync(file, JSON.stringify(await measure(options({ shard: `${i}/2`, thresholds: { min: 0.95 } }))));
        return file;
      }),
    );
    const r = await proctor(["merge", ...strict, "--check", "-o", join(dir, "strict.json")]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/below thresholds:\n {2}✗ tool\(Bash\): .* < minimum 95\.0%/);
    expect((await proctor(["merge", ...shardFiles, "--check", "-o", join(dir, "ok.json")])).exitCode).toBe(0);
  });

  it("--check refuses a shard set with a shard missing, naming it; --allow-partial gates it as partial", async () => {
    const refused = await proctor(["merge", shardFiles[0], shardFiles[1], "--check", "-o", join(dir, "partial.json")]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("cannot --check an incomplete shard set: bash-rate: missing 3/3");
    expect(refused.stderr).toContain("--allow-partial");
    const out = join(dir, "partial.json");
    const partial = await proctor(["merge", shardFiles[0], shardFiles[1], "--check", "--allow-partial", "-o", out]);
    expect(partial.exitCode, partial.stderr).toBe(0);
    expect(partial.stderr).toContain("bash-rate: partial: gated on the shards given; missing 3/3");
    expect(validateCheckReport(JSON.parse(readFileSync(out, "utf8"))).incomplete).toMatchObject({ reason: "missing-shards", missingShards: ["3/3"] });
    // Without --check a partial merge is written, and says so.
    const plain = await proctor(["merge", shardFiles[0], shardFiles[1]]);
    expect(plain.exitCode).toBe(0);
    expect(plain.stderr).toContain("partial: missing shards 3/3");
    expect((await proctor(["merge", shardFiles[0], "--allow-partial"])).exitCode).toBe(2);
  });

  it("merges the arrays `proctor run --json` writes, eval by eval", async () => {
    const files = await Promise.all(
      [1, 2].map(async (i) => {
        const file = join(dir, `run-${i}.json`);
        const evals = [await measure(options({ shard: `${i}/2` })), await measure(options({ shard: `${i}/2`, name: "other", trials: 10 }))];
        writeFileSync(file, JSON.stringify(evals));
        return file;
      }),
    );
    const r = await proctor(["merge", ...files]);
    expect(r.exitCode).toBe(0);
    const merged = JSON.parse(r.stdout) as unknown[];
    expect(merged.map((m) => validateCheckReport(m)).map((m) => [m.name, m.trials.ran, m.mergedFrom])).toEqual([
      ["bash-rate", 30, ["1/2", "2/2"]],
      ["other", 10, ["1/2", "2/2"]],
    ]);
    expect(r.stderr).toContain("merged 2 report(s) of other: 10 trials evaluated");
  });

  it("exits 2 naming the file and the field for a broken or overlapping report", async () => {
    const broken = join(dir, "broken.json");
    writeFileSync(broken, JSON.stringify({ ...JSON.parse(readFileSync(shardFiles[0], "utf8")), confidence: 2 }));
    const r = await proctor(["merge", broken]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${broken}.confidence: must be < 1 (got 2)`);
    const twice = await proctor(["merge", shardFiles[0], shardFiles[0]]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain("cannot merge: shard 1/3 is given twice");
    expect((await proctor(["merge"])).stderr).toContain("usage: proctor merge REPORT.json…");
  });
});
