/**
 * Calibrating a claude version after its first trial (harness/workdir/calibration.ts says why):
 * two control runs, one after the other, through runHarness itself — the same binary, mock and
 * confinement as the trial — whose script calls no tool. Learnt once per version, user and
 * confinement, cached on disk; concurrent trials in one process wait for the same calibration.
 */
import type { OutsideWrites, Trace } from "../../src/trace/types.js";
import { calibrationFile, learnPatterns, matchesCalibration, readCalibration, writeCalibration } from "../workdir/calibration.js";
import type { HarnessSpec } from "./spec.js";

type Learnt = NonNullable<OutsideWrites["calibration"]>;
type Runner = (spec: HarnessSpec) => Promise<{ trace: { outsideWrites?: OutsideWrites }; cleanup(): Promise<void> }>;

/** Specs of control runs: runHarness does not calibrate for them (they are the calibration). */
export const controlRuns = new WeakSet<HarnessSpec>();
const pending = new Map<string, Promise<Learnt>>();

/**
 * The trial's Trace with its version's own writes left out of `outsideWrites`, the calibration
 * named there. Done once the trial ended, with the version its init line reported: a binary that
 * reports none (a stand-in, a crash before the init line) is not calibrated, and nothing is spent
 * asking a binary for its version before the trial.
 */
export async function withCalibration(trace: Trace, spec: HarnessSpec, binary: string, confined: boolean, run: Runner): Promise<Trace> {
  const version = trace.source.agentVersion;
  const outside = trace.outsideWrites;
  if (controlRuns.has(spec) || version === undefined || outside === undefined) return trace;
  const learnt = await calibrationFor(spec, binary, version, confined, run);
  const patterns = "patterns" in learnt ? learnt.patterns : [];
  const changes = outside.changes.filter((c) => !(/^\$(HOME|TMPDIR)\//.test(c.path) && matchesCalibration(patterns, c.path)));
  return { ...trace, outsideWrites: { ...outside, changes, calibration: learnt } };
}

/** The calibration of `version`, from the cache or learnt now with `binary`. */
export async function calibrationFor(spec: HarnessSpec, binary: string, version: string, confined: boolean, run: Runner): Promise<Learnt> {
  const file = calibrationFile(version, confined ? "jail" : "open");
  const cached = readCalibration(file);
  if (cached) return cached;
  let learning = pending.get(file);
  if (!learning) {
    learning = learn(spec, binary, version, file, run);
    // Kept for the process's life: a failed calibration is not tried again before every trial.
    pending.set(file, learning);
  }
  return learning;
}

async function learn(spec: HarnessSpec, binary: string, version: string, file: string, run: Runner): Promise<Learnt> {
  const changes = [];
  try {
    for (let i = 0; i < 2; i++) {
      const control: HarnessSpec = {
        prompt: "Reply with one word.",
        script: { turns: [{ text: "Done." }] },
        claudePath: binary,
        timeoutMs: 90_000,
        ...(spec.mock ? { mock: spec.mock } : {}),
        ...(spec.sandbox ? { sandbox: spec.sandbox } : {}),
      };
      controlRuns.add(control);
      const { trace, cleanup } = await run(control);
      await cleanup();
      changes.push(trace.outsideWrites?.changes ?? []);
    }
  } catch (error) {
    return { failed: `the control runs of claude ${version} failed (${(error as Error).message.split("\n")[0]}); only the known bookkeeping rules were applied` };
  }
  const learnt = { version, patterns: learnPatterns(changes[0] ?? [], changes[1] ?? []) };
  try {
    writeCalibration(file, learnt);
  } catch {
    // An unwritable cache costs a calibration per process, not a wrong answer.
  }
  return learnt;
}
