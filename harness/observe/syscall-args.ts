/**
 * What a system call's arguments mean for the effect record: which errors are refusals, which
 * calls matter only when refused, which paths are no effect, and how a socket address reads.
 */
import { decodeString } from "./strace-line.js";

/** The errors that mean a confinement (or the file system) refused an operation: the attempt is the effect. */
export const REFUSAL_ERRNOS = new Set(["EACCES", "EPERM", "EROFS", "ENOSYS"]);

/** Syscalls logged only so a refusal of them shows; their successes are not effects. */
export const REFUSAL_ONLY = new Set(["socket", "io_uring_setup", "keyctl", "add_key", "ptrace", "mount", "unshare", "setns", "bind"]);

/** Process-tree syscalls: a refusal of these (ENOSYS for clone3 under a filter) is the C library probing, not an attempt at an effect. */
export const TREE = new Set(["clone", "clone3", "fork", "vfork"]);

/** Paths whose writes are no effect: the null devices, the terminal, a process's own descriptors and pipes. */
export function ignoredPath(p: string): boolean {
  return (
    p === "/dev/null" || p === "/dev/zero" || p === "/dev/full" || p === "/dev/tty" || p === "/dev/ptmx" || p === "/dev/random" || p === "/dev/urandom" ||
    /^\/dev\/(pts\/\d+|std(in|out|err)|fd\/\d+)$/.test(p) ||
    /^\/proc\/(self|thread-self|\d+)\/fd\/\d+$/.test(p) ||
    /^(pipe|socket|anon_inode):/.test(p)
  );
}

/** `{sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")}` → `1.2.3.4:80`; unix and IPv6 likewise; NULL → undefined. */
export function sockAddress(raw: string): string | undefined {
  if (!raw.startsWith("{")) return undefined;
  const family = /sa_family=(\w+)/.exec(raw)?.[1];
  if (family === "AF_UNIX") {
    const m = /sun_path=(@?)("(?:[^"\\]|\\.)*")/.exec(raw);
    if (!m) return "unix:";
    const p = decodeString(m[2] ?? "")?.text ?? "";
    return m[1] ? `unix:@${p}` : `unix:${p}`;
  }
  const port = /sin6?_port=htons\((\d+)\)/.exec(raw)?.[1];
  if (family === "AF_INET") return `${/inet_addr\("([^"]*)"\)/.exec(raw)?.[1] ?? "?"}:${port ?? "?"}`;
  if (family === "AF_INET6") return `[${/inet_pton\(AF_INET6, "([^"]*)"/.exec(raw)?.[1] ?? "?"}]:${port ?? "?"}`;
  if (family === "AF_NETLINK") return undefined; // the kernel's own interface (routes, addresses): no connection
  return family;
}

/** `pidfd_send_signal(3<anon_inode:[pidfd]>…)`: strace ≥ 6 prints the pid inside the decoration as `pid:N`. */
export function pidOfPidfd(raw: string): number | undefined {
  const m = /pid:(\d+)/.exec(raw);
  return m ? Number(m[1]) : undefined;
}
