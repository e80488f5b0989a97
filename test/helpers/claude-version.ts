/**
 * The version of the claude binary the harness tests run (PROCTOR_CLAUDE, else node_modules), so a
 * test that asserts one version's behaviour can say which versions it holds for. CI runs the suite
 * on the pinned claude and on the newest published one.
 */
import { execFileSync } from "node:child_process";
import { resolveClaudeBinary } from "../../harness/claude/binary.js";

let version: string | undefined;

/** `2.1.332` for `2.1.332 (Claude Code)`. */
export function claudeVersion(): string {
  version ??= /\d+\.\d+\.\d+/.exec(execFileSync(resolveClaudeBinary(), ["--version"], { encoding: "utf8" }))?.[0] ?? "0.0.0";
  return version;
}

/** Is the binary under test at `v` or newer? */
export function atLeast(v: string): boolean {
  const a = claudeVersion().split(".").map(Number);
  const b = v.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}
