/**
 * Attribution by calibration: what a claude version writes on its own, learnt from control runs.
 *
 * The rules in outside.ts name the CLI's bookkeeping proctor knows (session logs, its TMPDIR
 * folders). A new claude writes somewhere new — 2.1.332 added a file-watch probe under TMPDIR —
 * and that write would read as the agent's. So once the first trial of a claude version ended, proctor
 * runs two control trials whose script calls no tool and says one word; what they write beyond the
 * rules is that version's bookkeeping. A path segment that differs between the two controls (a
 * random suffix, a session id) becomes `*`; a path only one control wrote keeps its hex and digit
 * runs as `*`. The result is cached per version, user and confinement under the proctor cache
 * (`$XDG_CACHE_HOME/proctor/calibration/`), so a version is calibrated once per machine.
 *
 * Evidence, both ways: a write a control made with no tool and no plugin cannot be the agent's
 * work; a write no control made stays the run's, so a new write by a hook, an MCP server or a
 * command still fails `wroteOnly`. A control that fails leaves no calibration (the rules alone
 * decide, as before) and the trace says so in `outsideWrites.calibration`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { FileChange } from "../../src/trace/types.js";

/** What a calibration learnt: the claude version, and the path patterns its controls wrote. */
export interface Calibration {
  readonly version: string;
  /** `NAME/seg/seg*` patterns over `outsideWrites` paths: `*` matches within one segment. */
  readonly patterns: readonly string[];
}

/** Bumped when the way patterns are learnt changes, so an old cache is not trusted. */
const FORMAT = 1;

/** The calibration cache: `$XDG_CACHE_HOME/proctor/calibration` (~/.cache/…), or PROCTOR_CALIBRATION_CACHE. */
export function calibrationDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.PROCTOR_CALIBRATION_CACHE) return path.resolve(env.PROCTOR_CALIBRATION_CACHE);
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "proctor", "calibration");
}

/** The cache file for one version, user and confinement. */
export function calibrationFile(version: string, confined: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  return path.join(calibrationDir(env), `claude-${version.replace(/[^0-9A-Za-z.+-]/g, "_")}-uid${uid}-${confined}.json`);
}

/** A cached calibration, or undefined when absent or not in this format. */
export function readCalibration(file: string): Calibration | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const raw = JSON.parse(readFileSync(file, "utf8")) as { format?: unknown; version?: unknown; patterns?: unknown };
    if (raw.format !== FORMAT || typeof raw.version !== "string" || !Array.isArray(raw.patterns) || !raw.patterns.every((p) => typeof p === "string")) return undefined;
    return { version: raw.version, patterns: raw.patterns as string[] };
  } catch {
    return undefined;
  }
}

/** Write the cache atomically (two workers calibrating at once each write a whole file). */
export function writeCalibration(file: string, calibration: Calibration): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ format: FORMAT, ...calibration }, null, 2)}\n`);
  renameSync(tmp, file);
}

/** A segment with its hex and digit runs (4+ long) as `*`: ids a single control cannot show to vary. */
function looseSegment(seg: string): string {
  return seg.replace(/[0-9a-f]{8,}(-[0-9a-f]{4,})*|[0-9]{4,}/gi, "*");
}

/** One segment that matches both: the shared prefix and suffix around `*`, or the segment itself when equal. */
function joinSegments(a: string, b: string): string {
  if (a === b) return a;
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  return `${a.slice(0, pre)}*${a.slice(a.length - suf)}`;
}

/**
 * The patterns two control runs' changes teach: each path of the first is paired with the path of
 * the second under the same root, of the same depth, that differs in the fewest segments (at most
 * half of them); differing segments become `*`. An unpaired path is kept with its ids loosened.
 */
export function learnPatterns(first: readonly FileChange[], second: readonly FileChange[]): string[] {
  const split = (c: FileChange) => c.path.split("/");
  const rest = second.filter((c) => c.change !== "deleted").map(split);
  const out = new Set<string>();
  for (const change of first) {
    if (change.change === "deleted") continue;
    const a = split(change);
    let best: { segs: string[]; diff: number } | undefined;
    for (const b of rest) {
      if (b.length !== a.length || b[0] !== a[0]) continue;
      const diff = a.filter((s, i) => s !== b[i]).length;
      if (diff * 2 <= a.length - 1 && (!best || diff < best.diff)) best = { segs: b, diff };
    }
    out.add((best ? a.map((s, i) => joinSegments(s, best.segs[i] as string)) : a.map((s, i) => (i === 0 ? s : looseSegment(s)))).join("/"));
  }
  return [...out].sort();
}

/** Whether `p` (an outsideWrites path) is one of the patterns. */
export function matchesCalibration(patterns: readonly string[], p: string): boolean {
  const segs = p.split("/");
  return patterns.some((pattern) => {
    const ps = pattern.split("/");
    return ps.length === segs.length && ps.every((s, i) => segmentMatches(s, segs[i] as string));
  });
}

function segmentMatches(pattern: string, seg: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === seg;
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!seg.startsWith(first) || seg.length < first.length + last.length || !seg.endsWith(last)) return false;
  let at = first.length;
  const end = seg.length - last.length;
  for (const mid of parts.slice(1, -1)) {
    const found = seg.indexOf(mid, at);
    if (found < 0 || found + mid.length > end) return false;
    at = found + mid.length;
  }
  return true;
}
