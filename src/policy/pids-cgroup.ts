/**
 * A pids cgroup around one jailed trial: the process-count bound the kernel enforces whoever the
 * caller is. RLIMIT_NPROC, which the jail also sets, is not enforced for a caller that is root
 * outside (the kernel exempts uid 0's own user), so as root — CI, containers — only a cgroup bounds
 * a fork bomb. cgroup v1's pids hierarchy, or v2 where this process's cgroup already delegates the
 * pids controller; where neither can be written (a user without a delegated cgroup) there is none,
 * and RLIMIT_NPROC bounds that user.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** One trial's cgroup: `procs` is the file a process writes its pid to, to join it. */
export interface PidsCgroup {
  readonly dir: string;
  readonly procs: string;
  /** Kill what is left in it and remove it (idempotent). */
  close(): void;
}

/** Where this process's pids cgroup lives, or undefined: v1's pids hierarchy first, then v2 with pids delegated. */
export function pidsCgroupBase(cgroupFile = "/proc/self/cgroup", root = "/sys/fs/cgroup"): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync(cgroupFile, "utf8").split("\n");
  } catch {
    return undefined;
  }
  for (const line of lines) {
    const v1 = /^\d+:([^:]+):(.*)$/.exec(line);
    if (v1 && (v1[1] as string).split(",").includes("pids")) {
      const base = path.join(root, v1[1] as string, v1[2] as string).replace(/(.)\/+$/, "$1");
      if (existsSync(path.join(base, "cgroup.procs"))) return base;
    }
  }
  const v2 = lines.map((l) => /^0::(.*)$/.exec(l)).find((m) => m !== null);
  if (v2 && existsSync(path.join(root, "cgroup.controllers"))) {
    const base = path.join(root, v2[1] as string).replace(/(.)\/+$/, "$1");
    try {
      if (readFileSync(path.join(base, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("pids")) return base;
    } catch {
      // not delegated
    }
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Kill every process left in `dir` and remove it; false when it could not be removed. */
function removeGroup(dir: string): boolean {
  for (let i = 0; i < 50; i++) {
    try {
      rmdirSync(dir);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return true;
      if (code !== "EBUSY") return false;
    }
    let pids: number[] = [];
    try {
      pids = readFileSync(path.join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
    } catch {
      // gone meanwhile
    }
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    sleepMs(10);
  }
  return false;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

let serial = 0;

/**
 * A new pids cgroup of at most `max` tasks (processes and threads), or undefined where none can be
 * made. Groups left by a proctor process that is gone (killed before it could remove them) are
 * removed first (empty ones only).
 */
export function openPidsCgroup(max: number, base = pidsCgroupBase()): PidsCgroup | undefined {
  if (base === undefined) return undefined;
  for (const name of safeList(base)) {
    try {
      const owner = /^proctor-jail-(\d+)-\d+$/.exec(name);
      // Only an empty group is removed: a pid that is gone here may be alive in another pid namespace.
      if (owner && !alive(Number(owner[1]))) rmdirSync(path.join(base, name));
    } catch {
      // still in use, or not ours to remove
    }
  }
  const dir = path.join(base, `proctor-jail-${process.pid}-${++serial}`);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(path.join(dir, "pids.max"), String(max));
  } catch {
    removeGroup(dir);
    return undefined;
  }
  let closed = false;
  return {
    dir,
    procs: path.join(dir, "cgroup.procs"),
    close() {
      if (closed) return;
      closed = true;
      removeGroup(dir);
    },
  };
}

/** The one group every command the gate confines joins (named for the user, kept between calls: the gate does not outlive its decision). */
export const GATE_GROUP = "proctor-gate";

/**
 * The `cgroup.procs` file of the gate's shared pids group, made (or its bound updated) now: every
 * confined command joins it, so together they stay under `max` tasks. Undefined where none can be
 * made. The group stays between calls, empty while nothing confined runs.
 */
export function gatePidsGroup(max: number, base = pidsCgroupBase()): string | undefined {
  if (base === undefined) return undefined;
  const dir = path.join(base, `${GATE_GROUP}-${process.getuid?.() ?? 0}`);
  try {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "pids.max");
    if (readFileSync(file, "utf8").trim() !== String(max)) writeFileSync(file, String(max));
    return path.join(dir, "cgroup.procs");
  } catch {
    return undefined;
  }
}
