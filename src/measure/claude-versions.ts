/**
 * Which claude versions proctor is tested on, and how versions compare. The tested range is the one
 * place that says it: `proctor run` warns for a trace from outside it, the README and CI name it.
 * A claude update changes stream shapes and wording (see docs/harness.md); a verdict from a version
 * no one tested may mean something else, so it is said, not hidden.
 */

/** The claude versions proctor's test suite runs on (CI: the pinned one and the newest published). */
export const TESTED_CLAUDE_RANGE = { min: "2.1.197", max: "2.1.332" } as const;

const parts = (v: string): number[] | undefined => {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
};

/** True for a version string like `2.1.332` (a `-beta.1` tail or ` (Claude Code)` after it is allowed). */
export function isVersion(v: string): boolean {
  return typeof v === "string" && parts(v) !== undefined;
}

/** Negative, 0 or positive as `a` is older than, equal to or newer than `b` (numeric, not text: 2.1.99 < 2.1.100). */
export function compareVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The version out of `claude --version` output (`2.1.332 (Claude Code)` → `2.1.332`). */
export function versionFromOutput(text: string): string | undefined {
  return /(\d+\.\d+\.\d+(?:-[\w.]+)?)/.exec(text)?.[1];
}

/** Within the tested range (inclusive)? */
export function inTestedRange(version: string): boolean {
  return isVersion(version) && compareVersions(version, TESTED_CLAUDE_RANGE.min) >= 0 && compareVersions(version, TESTED_CLAUDE_RANGE.max) <= 0;
}

/** The warning for a claude outside the tested range, naming it; undefined inside it. */
export function testedRangeWarning(version: string): string | undefined {
  if (inTestedRange(version)) return undefined;
  const { min, max } = TESTED_CLAUDE_RANGE;
  const side = isVersion(version) && compareVersions(version, min) < 0 ? "older than" : isVersion(version) ? "newer than" : "not a version within";
  return `claude ${version} is ${side} the versions proctor is tested on (${min} – ${max}): stream shapes and wording may differ, so read its verdicts with care (proctor bisect and proctor run --claude A,B show what changed)`;
}

/** The versions a set of reports ran on, as one phrase: `2.1.197`, `2.1.197, 2.1.332`, or `unknown`. */
export function versionsText(versions: readonly string[]): string {
  return versions.length ? [...versions].sort(compareVersions).join(", ") : "unknown";
}
