/** The strace command line the observer runs the agent under (see docs/observation.md for why this shape). */

/** The system calls with effects, those that show a refusal, and those that build the process tree and the working directory. */
export const TRACED_SYSCALLS = [
  // files: opened for writing, created, removed, renamed, linked, their mode changed
  "open", "openat", "openat2", "creat", "truncate",
  "mkdir", "mkdirat", "mknod", "mknodat", "unlink", "unlinkat", "rmdir",
  "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
  "chmod", "fchmod", "fchmodat",
  // programs, connections, signals
  "execve", "execveat", "connect", "sendto", "sendmsg", "bind",
  "kill", "tkill", "tgkill", "pidfd_send_signal",
  // the process tree and each process's working directory
  "clone", "clone3", "fork", "vfork", "chdir", "fchdir",
  // shown only when refused: a jail's refusals
  "socket", "io_uring_setup", "keyctl", "add_key", "ptrace", "mount", "unshare", "setns",
] as const;

/** Longest string strace prints whole (a command, a path): the observer cuts argv at 4 KiB, so a little more shows where a cut happened. */
export const STRING_LIMIT = 4200;

/** strace's arguments before the agent's command line. `seccomp`: stop only on the traced syscalls (see docs/observation.md). */
export function straceArgs(logFile: string, seccomp: boolean): string[] {
  return [
    "-D", // strace runs beside the agent, not as its parent: the agent's exit ends the run, whatever it left behind
    "-f",
    "-qq",
    "-y", // file descriptors and AT_FDCWD as paths: the cwd of a relative path, the file an fd names
    "--pidns-translation", // a child's pid inside a jail's pid namespace, translated to strace's
    "-e", "signal=none",
    "-e", `trace=${TRACED_SYSCALLS.join(",")}`,
    "-s", String(STRING_LIMIT),
    ...(seccomp ? ["--seccomp-bpf"] : []),
    "-o", logFile,
    "--",
  ];
}
