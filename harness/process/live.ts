/**
 * Everything this process has started and not yet cleaned up — run process groups and temp dirs —
 * and the three nets that make sure none of it outlives the process: the `exit` hook (a normal
 * exit, `process.exit`), SIGINT/SIGTERM/SIGHUP handlers (when nobody else answers the signal) and
 * the supervisor (the process dies without running any code: SIGKILL, a crash of the runtime).
 */
import { rmSync } from "node:fs";
import { KILL_GRACE_MS, killRunNow, terminateRun, type RunProcesses } from "./group.js";
import { startSupervisor, type Supervisor } from "./supervisor.js";

/** One registry per process, shared by every copy of this module (a test runner's isolated module graphs, two installs of the package): one set of handlers, one supervisor. */
interface LiveState {
  readonly runs: Map<number, RunProcesses>;
  readonly dirs: Set<string>;
  supervisor: Supervisor | null | undefined;
  installed: boolean;
  stopping: boolean;
  readonly handlers: Map<NodeJS.Signals, () => void>;
  readonly onExit: () => void;
}

/** Marks proctor's own signal listeners, so only other listeners count as the program answering a signal. */
const OURS = Symbol.for("proctor.harness.signal-listener");

/** The signals that end a driver: Ctrl-C, a polite kill, a closed terminal. */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const STATE_KEY = Symbol.for("proctor.harness.live.v1");
const registry = globalThis as Record<symbol, unknown>;
registry[STATE_KEY] ??= createState();
const state = registry[STATE_KEY] as LiveState;

function createState(): LiveState {
  const created: LiveState = {
    runs: new Map(),
    dirs: new Set(),
    supervisor: undefined,
    installed: false,
    stopping: false,
    handlers: new Map(),
    onExit: () => cleanupNow(created),
  };
  for (const signal of SIGNALS) {
    const handler = Object.assign(() => onSignal(created, signal), { [OURS]: true });
    created.handlers.set(signal, handler);
  }
  return created;
}

function supervise(line: string): void {
  state.supervisor ??= startSupervisor(KILL_GRACE_MS);
  state.supervisor?.send(line);
}

/** Synchronous, for `exit`: SIGKILL every live run, remove every temp dir, release the supervisor. */
function cleanupNow(s: LiveState): void {
  for (const run of s.runs.values()) killRunNow(run);
  s.runs.clear();
  for (const dir of s.dirs) {
    // One dir that cannot go (a file marked immutable, a mount inside) must not keep the others,
    // nor turn the exit into a crash with a stack trace and another exit code.
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      process.stderr.write(`proctor: could not remove the temp dir ${dir} (${error instanceof Error ? error.message : String(error)}); remove it by hand\n`);
    }
  }
  s.dirs.clear();
  s.supervisor?.send("bye");
}

/**
 * A driver signal nobody else answers: stop every run (SIGTERM, then SIGKILL), remove the temp
 * dirs, then die of the same signal, as the process would have without us. When the program has
 * its own listener (`proctor run`, a test runner), it decides: it aborts its runs or exits, and
 * the exit hook and the supervisor still cover what is left. A second signal skips the grace.
 */
function onSignal(s: LiveState, signal: NodeJS.Signals): void {
  if (process.listeners(signal).some((l) => !(l as unknown as Record<symbol, unknown>)[OURS])) return;
  const die = () => {
    cleanupNow(s);
    uninstall(s);
    process.kill(process.pid, signal);
  };
  if (s.stopping) {
    die();
    return;
  }
  s.stopping = true;
  void Promise.all([...s.runs.values()].map((run) => terminateRun(run))).finally(die);
}

function install(s: LiveState): void {
  if (s.installed) return;
  s.installed = true;
  process.on("exit", s.onExit);
  for (const [signal, handler] of s.handlers) process.on(signal, handler);
}

function uninstall(s: LiveState): void {
  if (!s.installed) return;
  s.installed = false;
  process.off("exit", s.onExit);
  for (const [signal, handler] of s.handlers) process.off(signal, handler);
}

/** Track a started run until `untrackRun`: killed with this process, whichever way it ends. */
export function trackRun(run: RunProcesses): void {
  install(state);
  state.runs.set(run.pgid, run);
  supervise(`+g ${run.pgid} ${run.tag}${run.since === undefined ? "" : ` ${run.since}`}`);
}

/** The run's processes are gone: stop tracking them. */
export function untrackRun(pgid: number): void {
  state.runs.delete(pgid);
  state.supervisor?.send(`-g ${pgid}`);
}

/** Track a temp dir until `untrackDir`: removed with this process, whichever way it ends. */
export function trackDir(dir: string): void {
  install(state);
  state.dirs.add(dir);
  supervise(`+d ${dir}`);
}

/** The dir was removed, or the caller keeps it: stop tracking it. */
export function untrackDir(dir: string): void {
  state.dirs.delete(dir);
  state.supervisor?.send(`-d ${dir}`);
}

/** True once a driver signal is stopping every run: a run's result has no one left to go to, so it is never handed back. */
export function dyingOfSignal(): boolean {
  return state.stopping;
}

/** The supervisor's pid, once one runs (for tests that check it). */
export function supervisorPid(): number | undefined {
  return state.supervisor?.pid;
}
