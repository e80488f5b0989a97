/**
 * An strace log read into what attribution needs: the process tree (who started whom), what each
 * process executed, and every effect, each still tied to the pid that made it. Read in chunks,
 * with hard caps, so a trial that floods its log (a loop writing files) cannot make proctor use
 * unbounded memory: what the caps leave out is counted and named as a gap.
 */
import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import type { ObservedEffect } from "../../src/trace/types.js";
import { LineJoiner, decodeArray, decodeString, fdPath, parseCallLine, type StraceCall } from "./strace-line.js";
import { ignoredPath, pidOfPidfd, REFUSAL_ERRNOS, REFUSAL_ONLY, sockAddress, TREE } from "./syscall-args.js";

/** One process (or thread) of the run as the log shows it. */
export interface ObservedProcess {
  readonly pid: number;
  /** The pid that started it; absent for the first process (or one whose start the log did not show). */
  parent?: number;
  /** A thread (CLONE_THREAD) shares its starter's process. */
  thread?: boolean;
  /** What it executed, in order (a successful execve replaces the program; the argv each time). */
  readonly execs: { readonly path: string; readonly argv: readonly string[]; readonly cut: boolean; readonly line: number }[];
  /** Line of the log where it was first seen: an order of starts. */
  readonly firstLine: number;
}

/** The log as data. `effects` keep their pid; attribution turns pids into owners. */
export interface StraceLog {
  readonly processes: Map<number, ObservedProcess>;
  /** The first pid the log shows (the command strace started). */
  readonly firstPid: number | undefined;
  readonly effects: ObservedEffect[];
  readonly gaps: string[];
}

/** Bounds on what one log may hold in memory. */
export interface LogLimits {
  /** Effects kept per process. @default 2000 */
  readonly perProcess: number;
  /** Effects kept in all. @default 100000 */
  readonly total: number;
  /** Processes tracked. @default 50000 */
  readonly processes: number;
}

export const DEFAULT_LOG_LIMITS: LogLimits = { perProcess: 2000, total: 100_000, processes: 50_000 };

/** Read an strace log file in chunks and turn it into processes and effects. */
export function readStraceLog(file: string, limits: LogLimits = DEFAULT_LOG_LIMITS): StraceLog {
  const reader = new LogReader(limits);
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    let carry = "";
    const decoder = new TextDecoder();
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const text = carry + decoder.decode(buf.subarray(0, n), { stream: true });
      const lines = text.split("\n");
      carry = lines.pop() ?? "";
      for (const line of lines) reader.line(line);
    }
    if (carry !== "") reader.line(carry, true);
  } finally {
    closeSync(fd);
  }
  return reader.done();
}

/** Turn log text (a test's fixture) into processes and effects. */
export function parseStraceLog(text: string, limits: LogLimits = DEFAULT_LOG_LIMITS): StraceLog {
  const reader = new LogReader(limits);
  const lines = text.split("\n");
  const last = lines.pop() ?? "";
  for (const line of lines) reader.line(line);
  if (last !== "") reader.line(last, true);
  return reader.done();
}

class LogReader {
  private readonly joiner = new LineJoiner();
  private readonly processes = new Map<number, ObservedProcess>();
  private readonly effects: ObservedEffect[] = [];
  private readonly gaps: string[] = [];
  private readonly cwd = new Map<number, string>();
  /** fd → path, per fd table (a thread shares its process's). */
  private readonly fds = new Map<number, Map<number, string>>();
  private readonly fdTable = new Map<number, number>();
  private readonly perPid = new Map<number, { count: number; seen: Set<string> }>();
  private lineNo = 0;
  private firstPid: number | undefined;
  private dropped = 0;
  private droppedProcesses = 0;
  private unparsed = 0;
  private cutLine = false;

  constructor(private readonly limits: LogLimits) {}

  line(raw: string, last = false): void {
    this.lineNo++;
    const whole = this.joiner.push(raw);
    if (whole === undefined) return;
    const call = parseCallLine(whole);
    if (!call) {
      if (last) this.cutLine = true;
      else if (/^\d+ +[a-z_0-9]+\(/.test(whole)) this.unparsed++;
      return;
    }
    this.firstPid ??= call.pid;
    this.process(call.pid);
    this.interpret(call);
  }

  done(): StraceLog {
    if (this.cutLine) this.gaps.push("the observation log ends inside a line: it was cut short (the observer was killed or the disk filled)");
    if (this.joiner.unfinished > 0) this.gaps.push(`${this.joiner.unfinished} system call(s) never returned before the log ended (processes killed inside them): their outcome is unknown`);
    if (this.unparsed > 0) this.gaps.push(`${this.unparsed} log line(s) could not be read: what they recorded is missing`);
    if (this.dropped > 0) this.gaps.push(`${this.dropped} effect(s) beyond the observer's caps (${this.limits.perProcess} per process, ${this.limits.total} in all) were not kept`);
    if (this.droppedProcesses > 0) this.gaps.push(`${this.droppedProcesses} process(es) beyond the observer's cap of ${this.limits.processes} were not tracked: their effects are not tied to a call`);
    return { processes: this.processes, firstPid: this.firstPid, effects: this.effects, gaps: this.gaps };
  }

  private process(pid: number): ObservedProcess | undefined {
    let p = this.processes.get(pid);
    if (!p) {
      if (this.processes.size >= this.limits.processes) {
        this.droppedProcesses++;
        return undefined;
      }
      p = { pid, execs: [], firstLine: this.lineNo };
      this.processes.set(pid, p);
    }
    return p;
  }

  private table(pid: number): Map<number, string> {
    const owner = this.fdTable.get(pid) ?? pid;
    let t = this.fds.get(owner);
    if (!t) {
      t = new Map();
      this.fds.set(owner, t);
    }
    return t;
  }

  /** A path argument made absolute: against its dir fd's path, else the process's working directory. */
  private resolve(pid: number, raw: string | undefined, dirArg?: string): string | undefined {
    if (raw === undefined) return undefined;
    let p = raw;
    // A path through one of the process's own descriptors (`/proc/self/fd/18/name`): the descriptor's path.
    const viaFd = /^\/(?:proc\/(?:self|thread-self|(\d+))\/fd|dev\/fd)\/(\d+)(\/.*)?$/.exec(p);
    if (viaFd) {
      const dir = this.table(viaFd[1] ? Number(viaFd[1]) : pid).get(Number(viaFd[2]));
      if (dir !== undefined) p = viaFd[3] ? dir + viaFd[3] : dir;
    }
    if (path.posix.isAbsolute(p)) return path.posix.normalize(p);
    const base = dirArg !== undefined ? fdPath(dirArg) : undefined;
    const dir = base ?? this.cwd.get(pid);
    return dir === undefined ? p : path.posix.resolve(dir, p);
  }

  private keep(pid: number, effect: Omit<ObservedEffect, "pid">): void {
    let slot = this.perPid.get(pid);
    if (!slot) {
      slot = { count: 0, seen: new Set() };
      this.perPid.set(pid, slot);
    }
    const key = `${effect.kind}\0${effect.syscall}\0${effect.path ?? ""}\0${effect.to ?? ""}\0${effect.address ?? ""}\0${effect.errno ?? ""}\0${effect.signal ?? ""}\0${effect.target ?? ""}\0${effect.argv?.join("\0") ?? ""}`;
    if (slot.seen.has(key)) return;
    if (slot.count >= this.limits.perProcess || this.effects.length >= this.limits.total) {
      this.dropped++;
      return;
    }
    slot.seen.add(key);
    slot.count++;
    this.effects.push({ ...effect, pid });
  }

  private interpret(c: StraceCall): void {
    const { pid, name, args, ret } = c;
    // `-y` prints AT_FDCWD with the working directory: every *at call keeps the cwd up to date.
    for (const a of args) {
      if (a.startsWith("AT_FDCWD<") || a.startsWith("-100<")) {
        const cwd = fdPath(a);
        if (cwd !== undefined) this.cwd.set(pid, cwd);
        break;
      }
    }
    const ok = ret.errno === undefined && ret.value !== "?";
    const refused = ret.errno !== undefined && REFUSAL_ERRNOS.has(ret.errno);
    if (!ok && !refused) return;
    const errno = refused ? { errno: ret.errno } : {};
    const str = (i: number) => decodeString(args[i] ?? "")?.text;

    if (TREE.has(name)) {
      if (!ok) return;
      const child = ret.hostPid ?? Number(ret.value);
      if (!Number.isInteger(child) || child <= 0) return;
      const proc = this.process(child);
      if (!proc) return;
      proc.parent = pid;
      const flags = name === "clone3" ? (args[0] ?? "") : (args.find((a) => a.startsWith("flags=")) ?? "");
      if (flags.includes("CLONE_THREAD")) proc.thread = true;
      if (flags.includes("CLONE_FILES") || flags.includes("CLONE_THREAD")) this.fdTable.set(child, this.fdTable.get(pid) ?? pid);
      else this.fds.set(child, new Map(this.table(pid)));
      const cwd = this.cwd.get(pid);
      if (cwd !== undefined && !this.cwd.has(child)) this.cwd.set(child, cwd);
      return;
    }
    if (REFUSAL_ONLY.has(name)) {
      if (name === "bind" && ok) {
        const address = sockAddress(args[1] ?? "");
        if (address?.startsWith("unix:/")) this.keep(pid, { kind: "create", syscall: name, path: address.slice(5), fileType: "socket" });
        return;
      }
      if (refused) this.keep(pid, { kind: "refused", syscall: name, ...errno });
      return;
    }
    switch (name) {
      case "chdir":
      case "fchdir": {
        if (!ok) return;
        const dir = name === "chdir" ? this.resolve(pid, str(0)) : fdPath(args[0] ?? "");
        if (dir !== undefined) this.cwd.set(pid, dir);
        return;
      }
      case "open":
      case "openat":
      case "openat2":
      case "creat": {
        const at = name === "openat" || name === "openat2";
        const flags = name === "creat" ? "O_CREAT|O_WRONLY|O_TRUNC" : (args[at ? 2 : 1] ?? "");
        const target = this.resolve(pid, str(at ? 1 : 0), at ? args[0] : undefined);
        if (ok && ret.path !== undefined) {
          const fd = Number(ret.value);
          if (Number.isInteger(fd)) this.table(pid).set(fd, ret.path);
        }
        if (!/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_TMPFILE|O_APPEND/.test(flags)) return;
        // A successful open names the file the kernel opened (symlinks followed); a refused one, the path asked for.
        const file = ok && ret.path?.startsWith("/") ? ret.path : target;
        if (file === undefined || ignoredPath(file) || (target !== undefined && ignoredPath(target))) return;
        this.keep(pid, { kind: refused ? "refused" : "write", syscall: name, path: file, ...errno });
        return;
      }
      case "truncate":
      case "chmod":
      case "mkdir":
      case "rmdir":
      case "unlink": {
        const file = this.resolve(pid, str(0));
        if (file === undefined || ignoredPath(file)) return;
        const kind = name === "truncate" ? "write" : name === "unlink" ? "delete" : name;
        this.keep(pid, { kind: refused ? "refused" : kind, syscall: name, path: file, ...errno });
        return;
      }
      case "fchmod": {
        const file = fdPath(args[0] ?? "");
        if (file !== undefined && !ignoredPath(file)) this.keep(pid, { kind: refused ? "refused" : "chmod", syscall: name, path: file, ...errno });
        return;
      }
      case "fchmodat":
      case "mkdirat": {
        const file = this.resolve(pid, str(1), args[0]);
        if (file !== undefined && !ignoredPath(file)) this.keep(pid, { kind: refused ? "refused" : name === "mkdirat" ? "mkdir" : "chmod", syscall: name, path: file, ...errno });
        return;
      }
      case "unlinkat": {
        const file = this.resolve(pid, str(1), args[0]);
        if (file === undefined || ignoredPath(file)) return;
        this.keep(pid, { kind: refused ? "refused" : (args[2] ?? "").includes("AT_REMOVEDIR") ? "rmdir" : "delete", syscall: name, path: file, ...errno });
        return;
      }
      case "mknod":
      case "mknodat": {
        const i = name === "mknodat" ? 1 : 0;
        const file = this.resolve(pid, str(i), i ? args[0] : undefined);
        if (file === undefined) return;
        const mode = args[i + 1] ?? "";
        const fileType = mode.includes("S_IFIFO") ? "fifo" : mode.includes("S_IFSOCK") ? "socket" : /S_IF(CHR|BLK)/.test(mode) ? "device" : undefined;
        this.keep(pid, { kind: refused ? "refused" : "create", syscall: name, path: file, ...(fileType ? { fileType } : {}), ...errno });
        return;
      }
      case "rename":
      case "link":
      case "renameat":
      case "renameat2":
      case "linkat": {
        const at = name.endsWith("at") || name === "renameat2";
        const from = at ? this.resolve(pid, str(1), args[0]) : this.resolve(pid, str(0));
        const to = at ? this.resolve(pid, str(3), args[2]) : this.resolve(pid, str(1));
        if (from === undefined || to === undefined) return;
        const kind = name.startsWith("rename") ? "rename" : "link";
        // rename: path is the old name, `to` the new; link: path is the new name, `to` what it points at (as symlink).
        const effect = kind === "rename" ? { path: from, to } : { path: to, to: from };
        this.keep(pid, { kind: refused ? "refused" : kind, syscall: name, ...effect, ...errno });
        return;
      }
      case "symlink":
      case "symlinkat": {
        const target = str(0);
        const link = name === "symlinkat" ? this.resolve(pid, str(2), args[1]) : this.resolve(pid, str(1));
        if (target === undefined || link === undefined) return;
        this.keep(pid, { kind: refused ? "refused" : "link", syscall: name, path: link, to: target, ...errno });
        return;
      }
      case "execve":
      case "execveat": {
        const at = name === "execveat";
        const prog = at ? this.resolve(pid, str(1), args[0]) : this.resolve(pid, str(0));
        const argv = decodeArray(args[at ? 2 : 1] ?? "");
        if (prog === undefined) return;
        const items = argv?.items ?? [];
        if (ok) this.processes.get(pid)?.execs.push({ path: prog, argv: items, cut: argv?.cut ?? false, line: this.lineNo });
        this.keep(pid, { kind: refused ? "refused" : "exec", syscall: name, path: prog, argv: items.map((a) => (a.length > 4096 ? a.slice(0, 4096) : a)), ...errno });
        return;
      }
      case "connect":
      case "sendto":
      case "sendmsg": {
        const raw = name === "connect" ? args[1] : name === "sendto" ? args[4] : /msg_name=(\{[^}]*\})/.exec(args[1] ?? "")?.[1];
        const address = raw === undefined ? undefined : sockAddress(raw);
        if (address === undefined) return;
        this.keep(pid, { kind: refused ? "refused" : "connect", syscall: name, address, ...errno });
        return;
      }
      case "kill":
      case "tkill":
      case "tgkill":
      case "pidfd_send_signal": {
        const sigArg = name === "tgkill" ? args[2] : args[1];
        if (sigArg === undefined || sigArg === "0") return;
        const targetArg = name === "tgkill" ? args[1] : name === "pidfd_send_signal" ? undefined : args[0];
        const target = targetArg === undefined ? pidOfPidfd(args[0] ?? "") : Number(targetArg);
        this.keep(pid, { kind: refused ? "refused" : "signal", syscall: name, signal: sigArg, ...(target !== undefined && Number.isFinite(target) ? { target } : {}), ...errno });
        return;
      }
      default:
        return;
    }
  }
}
