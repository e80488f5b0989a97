/**
 * The differential fuzzer: command lines generated from the tools' real option tables
 * (test/fuzz/generate.ts) are classified, and every one called read-only is run by the real
 * tools under confinement with an observer (test/fuzz/observe.ts: a writable scratch copy
 * compared afterwards, strace's record of writes attempted and programs run, a listener on
 * 127.0.0.1). A read-only verdict with any observed effect fails, naming the command; such a
 * command goes into test/fuzz/corpus.ts once the classifier is fixed.
 *
 * CI runs a fixed seed and a small budget; nightly: PROCTOR_FUZZ_RUNS=5000 (and a fresh
 * PROCTOR_FC_SEED per night) — see docs/safety.md.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { explainBash, loadShellParser } from "../../src/safety.js";
import { SEEDS } from "./corpus.js";
import { fuzzCase } from "./generate.js";
import { observe, observerAvailable } from "./observe.js";

const RUNS = Number(process.env.PROCTOR_FUZZ_RUNS ?? 90);
const SEED = Number(process.env.PROCTOR_FC_SEED ?? 20261205);
const BATCH = 40;
const available = observerAvailable();

beforeAll(async () => {
  await loadShellParser();
});

// A fuzzer that silently does not run proves nothing: under .ci/run (which installs them) its tools must be there.
it.runIf(process.env.CI === "1")("the differential fuzzer has bwrap, strace and socat to run with", () => {
  expect(available).toBe(true);
});

describe.runIf(available)("the differential fuzzer (bwrap + strace + a local listener)", () => {
  it("sees each kind of effect it looks for, and none for a command that only reads", () => {
    const seen = observe(["cat in; sort in | uniq -c; sort -m - < in; tac < in", "echo x > made", "rm in2", "touch /etc/proctor-fuzz", "diff -l in in2", "echo hi > /dev/tcp/127.0.0.1/8099", "echo x > /tmp/left", "mkdir ~/d"]);
    expect(seen[0]?.effects).toEqual([]);
    expect(seen[1]?.effects).toContain("created made");
    expect(seen[2]?.effects).toContain("deleted in2");
    expect(seen[3]?.effects.join()).toMatch(/opened \/etc\/proctor-fuzz for writing/); // refused by the read-only root, still seen
    expect(seen[4]?.effects).toContain("ran /usr/bin/pr");
    expect(seen[5]?.effects.join()).toMatch(/127\.0\.0\.1/);
    expect(seen[6]?.effects).toContain("left /tmp/left");
    expect(seen[7]?.effects).toContain("created ~/d");
  }, 120_000);

  it(`every seed in the corpus is refused by the classifier and still has its effect (${SEEDS.length} seeds)`, () => {
    const verdicts = SEEDS.map((s) => ({ seed: s, verdict: explainBash(s.command) }));
    expect(verdicts.filter((v) => v.verdict.effect === "read-only").map((v) => v.seed.command)).toEqual([]);
    const seen = observe(SEEDS);
    const inert = seen.filter((o) => o.effects.length === 0).map((o) => o.command);
    expect(inert, "corpus rows whose effect the observer no longer sees").toEqual([]);
  }, 300_000);

  it(`no command the classifier calls read-only has an effect (${RUNS} generated commands, seed ${SEED})`, () => {
    const cases = fc.sample(fuzzCase(), { numRuns: RUNS, seed: SEED });
    const readOnly = cases.filter((c) => explainBash(c.command).effect === "read-only");
    const failures: string[] = [];
    for (let i = 0; i < readOnly.length; i += BATCH) {
      for (const o of observe(readOnly.slice(i, i + BATCH))) {
        if (o.effects.length === 0) continue;
        const c = readOnly.find((r) => r.command === o.command);
        failures.push(`${c?.posix ? "POSIXLY_CORRECT=1 " : ""}${o.command}\n    verdict: read-only (${explainBash(o.command).reason})\n    observed: ${o.effects.join("; ")}`);
      }
    }
    expect(readOnly.length).toBeGreaterThan(RUNS / 4);
    expect(failures, `seed ${SEED}: read-only verdicts with an effect`).toEqual([]);
  }, 900_000);
});
