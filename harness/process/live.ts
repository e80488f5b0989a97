/**
 * Everything this process has started and not yet cleaned up — run process groups and temp dirs —
 * and the three nets that make sure none of it outlives the process: the `exit` hook (a normal
 * exit, `process.exit`), SIGINT/SIGTERM/SIGHUP handlers (when nobody else answers the signal) and
 * the supervisor (the process dies without running any code: SIGKILL, a crash of the runtime).
 */
import { rmSync } from "node:fs";
import { KILL_GRACE_MS, killRunNow, terminateRun, type RunProcesses } from "./group.js";
import { startSupervisor, type Supervisor } from "./supervisor.js";

const runs = new Map<number, RunProcesses>();
const dirs = new Set<string>();
let supervisor: Supervisor | null | undefined;
let installed = false;
let stopping = false;

/** The signals that end a driver: Ctrl-C, a polite kill, a closed terminal. */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function supervise(line: string): void {
  supervisor ??= startSupervisor(KILL_GRACE_MS);
  supervisor?.send(line);
}

/** Remove every tracked temp dir now. */
function removeDirs(): void {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** Synchronous, for `exit`: SIGKILL every live run, remove every temp dir, release the supervisor. */
function cleanupNow(): void {
  for (const run of runs.values()) killRunNow(run);
  runs.clear();
  removeDirs();
  supervisor?.send("bye");
}

/**
 * A driver signal nobody else answers: stop every run (SIGTERM, then SIGKILL), remove the temp
 * dirs, then die of the same signal, as the process would have without us. When the program has
 * its own listener (`proctor run`, a test runner), it decides: it aborts its runs or exits, and
 * the exit hook and the supervisor still cover what is left. A second signal skips the grace.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  const die = () => {
    cleanupNow();
    uninstall();
    process.kill(process.pid, signal);
  };
  if (stopping) return die();
  stopping = true;
  void Promise.all([...runs.values()].map((run) => terminateRun(run))).finally(die);
}

const handlers = new Map(SIGNALS.map((s) => [s, () => onSignal(s)] as const));

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", cleanupNow);
  for (const [signal, handler] of handlers) process.on(signal, handler);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("exit", cleanupNow);
  for (const [signal, handler] of handlers) process.off(signal, handler);
}

/** Track a started run until `untrackRun`: killed with this process, whichever way it ends. */
export function trackRun(run: RunProcesses): void {
  install();
  runs.set(run.pgid, run);
  supervise(`+g ${run.pgid} ${run.tag}`);
}

/** The run's processes are gone: stop tracking them. */
export function untrackRun(pgid: number): void {
  runs.delete(pgid);
  supervisor?.send(`-g ${pgid}`);
}

/** Track a temp dir until `untrackDir`: removed with this process, whichever way it ends. */
export function trackDir(dir: string): void {
  install();
  dirs.add(dir);
  supervise(`+d ${dir}`);
}

/** The dir was removed, or the caller keeps it: stop tracking it. */
export function untrackDir(dir: string): void {
  dirs.delete(dir);
  supervisor?.send(`-d ${dir}`);
}

/** True once a driver signal is stopping every run: a run's result has no one left to go to, so it is never handed back. */
export function dyingOfSignal(): boolean {
  return stopping;
}

/** The supervisor's pid, once one runs (for tests that check it). */
export function supervisorPid(): number | undefined {
  return supervisor?.pid;
}
