/**
 * Finding and killing every process of one run: its process group (the CLI and what stays in its
 * group) and every process carrying the run's tag in its environment (what left the group).
 */
import { readdirSync, readFileSync } from "node:fs";

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

/** A process's state letter and process group, from /proc; undefined when it is gone or /proc is absent. */
function readStat(pid: string): { state: string; pgrp: number } | undefined {
  try {
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split after the last ")".
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const [state = "", , pgrp] = fields;
    return { state, pgrp: Number(pgrp) };
  } catch {
    return undefined;
  }
}

/**
 * The live (not zombie) pids of a run: members of its process group, and every process whose
 * environment carries its tag — tool commands the CLI starts in their own session, backgrounded
 * jobs and servers reparented to init once their parent exited. Linux reads /proc; elsewhere
 * the answer is undefined and the group kill is all there is.
 */
export function runPids(run: { readonly pgid?: number; readonly tag: string }): number[] | undefined {
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
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(needle)) out.push(Number(name));
    } catch {
      // gone, or another user's
    }
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

/** One run's processes: its group leader's pid (the group id) and its tag. */
export interface RunProcesses {
  readonly pgid: number;
  readonly tag: string;
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
