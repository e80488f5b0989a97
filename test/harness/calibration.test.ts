/**
 * Attribution by calibration: a claude version's own writes, learnt from two control runs that call
 * no tool, are left out of `outsideWrites`; anything the controls did not write stays the run's.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { calibrationFile, learnPatterns, matchesCalibration, writeCalibration } from "../../harness/workdir/calibration.js";
import { claudeVersionOf } from "../../harness/claude/versions.js";
import { resolveClaudeBinary } from "../../harness/claude/binary.js";
import type { FileChange } from "../../src/index.js";

const created = (p: string): FileChange => ({ path: p, change: "created" });

/** The reference: a pattern as a regular expression, `*` = any run of non-slash characters. */
function oracle(pattern: string, p: string): boolean {
  const re = new RegExp(`^${pattern.split("*").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);
  return re.test(p);
}

describe("learning patterns from two control runs", () => {
  it("a segment that differs between the controls becomes *, the rest stays exact", () => {
    const patterns = learnPatterns([created("$TMPDIR/claude-0/fswatch-probe-AbCd12/probe")], [created("$TMPDIR/claude-0/fswatch-probe-xYz987/probe")]);
    expect(patterns).toEqual(["$TMPDIR/claude-0/fswatch-probe-*/probe"]);
    expect(matchesCalibration(patterns, "$TMPDIR/claude-0/fswatch-probe-QQQQ/probe")).toBe(true);
    expect(matchesCalibration(patterns, "$TMPDIR/claude-0/mine/probe")).toBe(false);
    expect(matchesCalibration(patterns, "$TMPDIR/claude-0/fswatch-probe-QQQQ/probe/deeper")).toBe(false);
    expect(matchesCalibration(patterns, "$HOME/claude-0/fswatch-probe-QQQQ/probe")).toBe(false);
  });

  it("a path only one control wrote keeps its words and loosens only its ids", () => {
    expect(learnPatterns([created("$HOME/.cache/x/0123456789abcdef.json")], [])).toEqual(["$HOME/.cache/x/*.json"]);
    expect(learnPatterns([created("$HOME/.cache/state.json")], [created("$TMPDIR/other")])).toEqual(["$HOME/.cache/state.json"]);
  });

  it("property: every path either control wrote matches what was learnt, the matcher agrees with a regex oracle, and a root never matches another root", () => {
    const seg = fc.stringMatching(/^[a-z0-9.-]{1,8}$/);
    const change = fc.tuple(fc.constantFrom("$HOME", "$TMPDIR"), fc.array(seg, { minLength: 1, maxLength: 4 })).map(([r, s]) => created([r, ...s].join("/")));
    fc.assert(
      fc.property(fc.array(change, { maxLength: 6 }), fc.array(change, { maxLength: 6 }), fc.array(change, { maxLength: 6 }), (a, b, probes) => {
        const patterns = learnPatterns(a, b);
        for (const c of a) expect(matchesCalibration(patterns, c.path)).toBe(true);
        for (const p of [...a, ...b, ...probes].map((c) => c.path)) {
          expect(matchesCalibration(patterns, p)).toBe(patterns.some((pat) => oracle(pat, p)));
          if (matchesCalibration(patterns, p)) expect(patterns.some((pat) => pat.split("/")[0] === p.split("/")[0])).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("calibration with the real claude binary", () => {
  let cache: string;
  const saved = process.env.PROCTOR_CALIBRATION_CACHE;
  beforeAll(() => {
    cache = mkdtempSync(path.join(tmpdir(), "proctor-calibration-"));
    process.env.PROCTOR_CALIBRATION_CACHE = cache;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PROCTOR_CALIBRATION_CACHE;
    else process.env.PROCTOR_CALIBRATION_CACHE = saved;
    rmSync(cache, { recursive: true, force: true });
  });

  it("the first trial of a version calibrates it once; the trace names the version; a second trial reads the cache", async () => {
    const script = { turns: [{ text: "Done." }] };
    const first = await runHarness({ prompt: "go", script, timeoutMs: 90_000 });
    await first.cleanup();
    const learnt = first.trace.outsideWrites?.calibration;
    const version = await claudeVersionOf(resolveClaudeBinary({ cwd: process.cwd() }));
    expect(learnt).toMatchObject({ version });
    const file = calibrationFile(version, first.trace.outsideWrites?.sandbox.on ? "jail" : "open");
    const stamp = statSync(file).mtimeMs;
    expect(JSON.parse(readFileSync(file, "utf8")).version).toBe(version);
    const second = await runHarness({ prompt: "go", script, timeoutMs: 90_000 });
    await second.cleanup();
    expect(second.trace.outsideWrites?.calibration).toEqual(learnt);
    expect(statSync(file).mtimeMs).toBe(stamp);
    // A run that called no tool wrote nothing of its own, whatever this claude keeps.
    expect(second.trace.outsideWrites?.changes).toEqual([]);
  }, 240_000);

  it("a write the calibration names is left out; a write beside it stays the run's", async () => {
    const version = await claudeVersionOf(resolveClaudeBinary({ cwd: process.cwd() }));
    for (const mode of ["jail", "open"]) writeCalibration(calibrationFile(version, mode), { version, patterns: ["$TMPDIR/bookkeeping-*.log", "$TMPDIR/claude-*/bookkeeping-*.log"] });
    const { trace, cleanup } = await runHarness({
      prompt: "go",
      allowedTools: ["Bash"],
      script: { turns: [{ tools: [{ name: "Bash", input: { command: 'echo a > "$TMPDIR/bookkeeping-1.log"; echo b > "$TMPDIR/agent-note.txt"' } }] }, { text: "Done." }] },
      timeoutMs: 90_000,
    });
    await cleanup();
    const paths = (trace.outsideWrites?.changes ?? []).map((c) => c.path);
    // Bash's TMPDIR is the trial's, or a folder claude's own sandbox makes in it: the patterns name both.
    expect(paths.filter((p) => p.endsWith("/agent-note.txt"))).toHaveLength(1);
    expect(paths.filter((p) => p.endsWith("/bookkeeping-1.log"))).toEqual([]);
  }, 120_000);
});
