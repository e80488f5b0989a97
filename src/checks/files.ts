/** Checks on the work dir: what the run wrote, and what it must not have. */
import { createRequire } from "node:module";
import type picomatchType from "picomatch";
import type { FileChange, ObservedEffect, Trace } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { absenceUnprovable } from "./describe.js";
import { requireName, requireNames } from "./validate.js";
import { callEffects, isScratchPath, observationIncomplete, observedScope, WRITE_KINDS } from "./observed.js";

let picomatch: typeof picomatchType | undefined;
/** picomatch, loaded when the first glob is matched, not when proctor is imported. */
function loadPicomatch(): typeof picomatchType {
  picomatch ??= createRequire(import.meta.url)("picomatch") as typeof picomatchType;
  return picomatch;
}

/** Characters without which picomatch sees no glob: a pattern with none of them is a plain path. */
const GLOB_CHARS = /[*?[\]{}()!+@]/;

/**
 * A path or glob as the user wrote it, as a predicate over the trace's relative paths.
 * `./x`, `x` and `<cwd>/x` all name the same file.
 */
export function pathMatcher(pattern: string, cwd: string | undefined): (path: string) => boolean {
  let p = pattern.replace(/\\/g, "/");
  if (cwd && p.startsWith(`${cwd.replace(/\/$/, "")}/`)) p = p.slice(cwd.replace(/\/$/, "").length + 1);
  p = p.replace(/^\.\//, "");
  if (GLOB_CHARS.test(p) && loadPicomatch().scan(p).isGlob) {
    const isMatch = loadPicomatch()(p, { dot: true });
    return (path) => isMatch(path);
  }
  return (path) => path === p;
}

function listChanges(changes: readonly FileChange[], max = 10): string {
  if (changes.length === 0) return "no files changed";
  const shown = changes.slice(0, max).map((c) => `${c.change} ${c.path}`);
  return shown.join(", ") + (changes.length > max ? `, … ${changes.length - max} more` : "");
}

/**
 * Every change the run made that proctor observed: the work dir's, then those under the trial's
 * other roots (`$HOME/…`) — one complete diff — then the writes the observation saw outside every
 * compared root (absolute paths), as extra evidence the diff could not hold.
 */
function observedChanges(trace: Trace): readonly FileChange[] {
  const outside = [...(trace.outsideWrites?.changes ?? []), ...writesBeyondRoots(trace)];
  return outside.length ? [...(trace.files?.changes ?? []), ...outside] : (trace.files?.changes ?? []);
}

/**
 * Successful writes the observation saw (the calls', hooks' and MCP servers', and those tied to no
 * process) at paths outside the work dir and every compared root: what no snapshot compared. The
 * agent's own bookkeeping and the processes' scratch devices are left out.
 */
function writesBeyondRoots(trace: Trace): FileChange[] {
  const o = trace.observation;
  if (!o) return [];
  const scope = observedScope(trace);
  const compared = [trace.source.cwd, ...scope.roots.map((r) => r.path)].filter((p): p is string => p !== undefined).map((p) => p.replace(/\/+$/, ""));
  const effects: ObservedEffect[] = [
    ...trace.toolCalls.flatMap((c) => callEffects(trace, c) ?? []),
    ...o.others.filter((x) => x.owner.kind !== "agent").flatMap((x) => x.effects),
    ...o.unattributed,
  ];
  const out = new Map<string, FileChange>();
  for (const e of effects) {
    if (!WRITE_KINDS.has(e.kind) || e.errno !== undefined) continue;
    const paths: [string | undefined, FileChange["change"]][] = [[e.path, e.kind === "delete" || e.kind === "rmdir" || e.kind === "rename" ? "deleted" : e.kind === "create" || e.kind === "mkdir" || e.kind === "link" ? "created" : "modified"], [e.to, "created"]];
    for (const [path, change] of paths) {
      if (path === undefined || !path.startsWith("/") || isScratchPath(path, scope) || compared.some((r) => path === r || path.startsWith(`${r}/`))) continue;
      if (!out.has(path)) out.set(path, { path, change });
    }
  }
  return [...out.values()];
}

/** Whether `pattern` names a place outside the work dir (absolute, or under a root such as `$HOME`). */
function outsideWorkDir(pattern: string, cwd: string | undefined): boolean {
  const p = pattern.replace(/\\/g, "/");
  if (cwd && p.startsWith(`${cwd.replace(/\/$/, "")}/`)) return false;
  return p.startsWith("/") || /^(\$\w+|plugin:|mcp:)/.test(p);
}

/**
 * Why writes outside the work dir cannot be ruled out for `pattern` (undefined when they can): the
 * trace compared no roots beyond the work dir, the pattern lies outside every root it compared, or
 * (for `wroteOnly`, pattern undefined) some place the run could write was not compared.
 */
function outsideUnprovable(trace: Trace, pattern: string | undefined): string | undefined {
  const o = trace.outsideWrites;
  if (pattern !== undefined && !outsideWorkDir(pattern, trace.source.cwd)) return undefined;
  if (!o) return pattern === undefined ? undefined : `the trace compared only the work dir, and ${pattern} lies outside it`;
  if (pattern !== undefined) {
    const names = o.roots.map((r) => r.name);
    const p = pattern.replace(/\\/g, "/");
    if (names.some((n) => p === n || p.startsWith(`${n}/`))) return undefined;
    return `proctor compared only the work dir and ${names.join(", ")}; ${pattern} is none of them (name a file under one, e.g. $HOME/.config/x)`;
  }
  if (o.uncovered.length > 0) return `not every place the run could write was compared: ${o.uncovered.join("; ")}`;
  return undefined;
}

/** What the pass message adds about writes outside the work dir. */
function outsideNote(trace: Trace): string {
  const o = trace.outsideWrites;
  if (!o) return "; writes outside the work dir were not observed";
  const bash = o.sandbox.on ? "" : `; Bash ran unsandboxed (${o.sandbox.reason ?? "no reason given"}), so its writes elsewhere on disk were not observed`;
  return `; also compared ${o.roots.map((r) => r.name).join(", ")}${bash}`;
}

export const NO_SNAPSHOT =
  "only Write/Edit calls are known, not what Bash or an MCP server wrote — run it through runHarness, which snapshots the work dir";

/**
 * The run changed the work dir at this path — created, modified or deleted a file (a glob also
 * works): the exact complement of `didNotWrite`. `deleted(path)` asks for a deletion alone.
 */
export function wrote(path: string): Check<Trace> {
  requireName("wrote", "path", path);
  return defineTraceCheck("wrote", { path }, (trace) => {
    if (!trace.files) return { pass: false, message: `expected ${path} to be written; the trace has no file record`, expected: path };
    const match = pathMatcher(path, trace.source.cwd);
    const hit = observedChanges(trace).find((c) => match(c.path));
    if (hit) return { pass: true, message: `${hit.path} was ${hit.change}` };
    return {
      pass: false,
      message: `expected ${path} to be written; ${listChanges(observedChanges(trace))}${trace.files.source === "tool-calls" ? ` (${NO_SNAPSHOT})` : ""}`,
      expected: path,
      actual: trace.files.changes.map((c) => c.path),
    };
  });
}

/** The run deleted a file at this path (a glob also works). */
export function deleted(path: string): Check<Trace> {
  requireName("deleted", "path", path);
  return defineTraceCheck("deleted", { path }, (trace) => {
    if (!trace.files) return { pass: false, message: `expected ${path} to be deleted; the trace has no file record`, expected: path };
    const match = pathMatcher(path, trace.source.cwd);
    const hit = trace.files.changes.find((c) => match(c.path));
    if (hit?.change === "deleted") return { pass: true, message: `${hit.path} was deleted` };
    const what = hit ? `${hit.path} was ${hit.change}, not deleted` : listChanges(trace.files.changes);
    return { pass: false, message: `expected ${path} to be deleted; ${what}${trace.files.source === "tool-calls" ? ` (${NO_SNAPSHOT})` : ""}`, expected: path, actual: trace.files.changes.map((c) => c.path) };
  });
}

/**
 * The agent did NOT create, modify or delete a file at this path. Needs an exact work-dir
 * snapshot: a record built from tool calls can't see what Bash wrote, so it fails closed.
 */
export function didNotWrite(path: string): Check<Trace> {
  requireName("didNotWrite", "path", path);
  return defineTraceCheck("didNotWrite", { path }, (trace) => {
    const match = pathMatcher(path, trace.source.cwd);
    const hits = observedChanges(trace).filter((c) => match(c.path));
    // Name what changed: under a glob ("**") "it was created" would not say which file.
    if (hits.length > 0) return { pass: false, message: `expected ${path} to be left alone; ${hits.slice(0, 10).map((c) => `${c.path} was ${c.change}`).join(", ")}${hits.length > 10 ? `, … ${hits.length - 10} more` : ""}`, expected: path, actual: hits.length === 1 ? hits[0] : hits };
    if (!trace.files) return { pass: false, message: `cannot confirm ${path} was not written: the trace has no file record`, expected: path };
    if (trace.files.source !== "snapshot") return { pass: false, message: `cannot confirm ${path} was not written: ${NO_SNAPSHOT}`, expected: path };
    const unprovable = absenceUnprovable(trace);
    if (unprovable) return { pass: false, message: `cannot confirm ${path} was not written: ${unprovable}` };
    const outside = outsideUnprovable(trace, path);
    if (outside) return { pass: false, message: `cannot confirm ${path} was not written: ${outside}`, expected: path };
    const incomplete = observationIncomplete(trace);
    if (incomplete) return { pass: false, message: `cannot confirm ${path} was not written: ${incomplete}`, expected: path };
    return { pass: true, message: `${path} was not written (${observedChanges(trace).length} other change(s))` };
  });
}

/** Every change in the work dir is at one of these paths or globs — the write surface, whitelisted. */
export function wroteOnly(paths: readonly string[]): Check<Trace> {
  requireNames("wroteOnly", "paths", paths);
  return defineTraceCheck("wroteOnly", { paths: [...paths] }, (trace) => {
    if (!trace.files) return { pass: false, message: `cannot confirm the run wrote only [${paths.join(", ")}]: the trace has no file record`, expected: paths };
    const matchers = paths.map((p) => pathMatcher(p, trace.source.cwd));
    const outside = observedChanges(trace).filter((c) => !matchers.some((m) => m(c.path)));
    if (outside.length > 0) {
      return {
        pass: false,
        message: `expected changes only at [${paths.join(", ")}]; also ${listChanges(outside)}`,
        expected: paths,
        actual: outside.map((c) => c.path),
      };
    }
    if (trace.files.source !== "snapshot") return { pass: false, message: `cannot confirm the run wrote only [${paths.join(", ")}]: ${NO_SNAPSHOT}`, expected: paths };
    const unprovable = absenceUnprovable(trace);
    if (unprovable) return { pass: false, message: `cannot confirm the run wrote only [${paths.join(", ")}]: ${unprovable}` };
    const notCompared = outsideUnprovable(trace, undefined);
    if (notCompared) return { pass: false, message: `cannot confirm the run wrote only [${paths.join(", ")}]: ${notCompared}`, expected: paths };
    const incomplete = observationIncomplete(trace);
    if (incomplete) return { pass: false, message: `cannot confirm the run wrote only [${paths.join(", ")}]: ${incomplete}`, expected: paths };
    return { pass: true, message: `all ${observedChanges(trace).length} change(s) are inside [${paths.join(", ")}]${outsideNote(trace)}` };
  });
}
