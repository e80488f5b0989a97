/**
 * Calibrating a claude version before its first trial (harness/workdir/calibration.ts says why):
 * two control runs, one after the other, through runHarness itself — the same binary, mock and
 * confinement as the trial — whose script calls no tool. Learnt once per version, user and
 * confinement, cached on disk; concurrent trials in one process wait for the same calibration.
 */
import type { OutsideWrites } from "../../src/trace/types.js";
import { calibrationFile, learnPatterns, readCalibration, writeCalibration } from "../workdir/calibration.js";
import { resolveClaudeBinary } from "./binary.js";
import type { HarnessSpec } from "./spec.js";
import { claudeVersionOf } from "./versions.js";

type Learnt = NonNullable<OutsideWrites["calibration"]>;
type Runner = (spec: HarnessSpec) => Promise<{ trace: { outsideWrites?: OutsideWrites }; cleanup(): Promise<void> }>;

/** Specs of control runs: runHarness does not calibrate for them (they are the calibration). */
export const controlRuns = new WeakSet<HarnessSpec>();
const pending = new Map<string, Promise<Learnt>>();

/**
 * The calibration for the claude `spec` runs, from the cache or learnt now; undefined when the
 * binary cannot be found (the trial then fails with its own binary-missing error).
 */
export async function calibrationFor(spec: HarnessSpec, cwd: string, confined: boolean, run: Runner): Promise<Learnt | undefined> {
  let binary: string;
  let version: string;
  try {
    binary = resolveClaudeBinary({ claudePath: spec.claudePath, cwd });
    version = await claudeVersionOf(binary);
  } catch {
    return undefined;
  }
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
