/**
 * Finding and killing every process of one run: its process group (the CLI and what stays in its
 * group) and every process carrying the run's tag in its environment (what left the group).
 */
import { closeSync, openSync, readdirSync, readSync } from "node:fs";

/** The variable every process of a run inherits, so strays that left its group can still be found. */
export const RUN_TAG_VAR = "PROCTOR_RUN_TAG";

/** Grace between SIGTERM and SIGKILL when a run's processes are killed. */
export const KILL_GRACE_MS = 1_000;

/** Signal a whole process group; false when it is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone (EPERM cannot happen for a group we started)
  }
}

/**
 * One small /proc file's bytes, read into a buffer reused across calls (valid until the next
 * call); undefined when the process is gone or the file unreadable. A sweep reads a few hundred
 * of these after every run: open/read/close, without readFileSync's stat and string per file.
 */
let scratch = Buffer.allocUnsafe(16 * 1024);
function readProcFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    let n = 0;
    for (;;) {
      if (n === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(bigger, 0, 0, n);
        scratch = bigger;
      }
      const got = readSync(fd, scratch, n, scratch.length - n, null);
      if (got === 0) return scratch.subarray(0, n);
      n += got;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A process's state letter, process group and start time (clock ticks after boot), from /proc; undefined when it is gone or /proc is absent. */
function readStat(pid: number | string): { state: string; pgrp: number; start: number } | undefined {
  const bytes = readProcFile(`/proc/${pid}/stat`);
  if (bytes === undefined) return undefined;
  // pid (comm) state ppid pgrp … starttime (field 22); comm may hold spaces and parentheses, so split after the last ")".
  const text = bytes.toString("latin1");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const [state = "", , pgrp] = fields;
  return { state, pgrp: Number(pgrp), start: Number(fields[19]) };
}

/** When `pid` started, in clock ticks after boot (what /proc says); undefined where there is no /proc. */
export function startTimeOf(pid: number): number | undefined {
  const start = readStat(pid)?.start;
  return start === undefined || Number.isNaN(start) ? undefined : start;
}

/**
 * The live (not zombie) pids of a run: members of its process group, and every process whose
 * environment carries its tag — tool commands the CLI starts in their own session, backgrounded
 * jobs and servers reparented to init once their parent exited. A process that started before
 * the run's leader (`since`) cannot carry the tag, which only the leader's descendants inherit,
 * so its environment is not read. Linux reads /proc; elsewhere the answer is undefined and the
 * group kill is all there is.
 */
export function runPids(run: { readonly pgid?: number; readonly tag: string; readonly since?: number | undefined }): number[] | undefined {
  const needle = Buffer.from(`${RUN_TAG_VAR}=${run.tag}\0`);
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const stat = readStat(name);
    if (!stat || stat.state === "Z") continue;
    if (stat.pgrp === run.pgid) {
      out.push(Number(name));
      continue;
    }
    if (run.since !== undefined && stat.start < run.since) continue;
    // Gone, or another user's: undefined, and not the run's.
    if (readProcFile(`/proc/${name}/environ`)?.includes(needle)) out.push(Number(name));
  }
  return out;
}

/** SIGKILL every tagged process, a few passes so children forked meanwhile go too; how many were killed. */
export function killTagged(tag: string): number {
  let killed = 0;
  for (let pass = 0; pass < 3; pass++) {
    const found = signalPids(runPids({ tag }) ?? [], "SIGKILL");
    killed += found;
    if (found === 0) break;
  }
  return killed;
}

function signalPids(pids: readonly number[], signal: NodeJS.Signals): number {
  let count = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
      count++;
    } catch {
      // already gone
    }
  }
  return count;
}

/** One run's processes: its group leader's pid (the group id), its tag, and when the leader started (see runPids). */
export interface RunProcesses {
  readonly pgid: number;
  readonly tag: string;
  readonly since?: number | undefined;
}

/** True while any process of the run is left (without /proc: while its group has a member). */
export function anyLeft(run: RunProcesses): boolean {
  const pids = runPids(run);
  return pids === undefined ? signalGroup(run.pgid, 0) : pids.length > 0;
}

/** Kill a run's processes at once: SIGKILL to its group and every tagged process (for exit paths that cannot wait). */
export function killRunNow(run: RunProcesses): void {
  signalGroup(run.pgid, "SIGKILL");
  killTagged(run.tag);
}

/**
 * Stop a run's processes: SIGTERM to the group and every tagged process, up to `graceMs` for them
 * to exit, then SIGKILL to whatever is left.
 */
export async function terminateRun(run: RunProcesses, graceMs = KILL_GRACE_MS): Promise<void> {
  const pids = runPids(run);
  // The usual end of a run: nothing left, one /proc sweep and done.
  if (pids !== undefined && pids.length === 0) return;
  signalGroup(run.pgid, "SIGTERM");
  signalPids(pids ?? [], "SIGTERM");
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline && anyLeft(run)) await new Promise((r) => setTimeout(r, 50));
  killRunNow(run);
}
