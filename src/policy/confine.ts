/**
 * Confinement for a shell command the gate allowed below the write rung: the command is rewritten to
 * run inside bubblewrap, read-only, without network, capabilities or unix sockets, so a wrong static
 * reading becomes a failed command instead of a write. Pure: builds the command text and the seccomp
 * program; it never spawns (the gate or a test runs the result).
 *
 * Each hardening step is named so a test can drop one and watch the escape it closes succeed.
 */

/** A hardening step of the recipe; each closes an escape measured as root. */
export type ConfineStep =
  | "capDrop" // without it, root inside remounts `/` read-write
  | "procSysRo" // without it, root inside writes a global sysctl
  | "seccompUnix" // without it, a unix socket (a daemon's) is reachable through the read-only bind
  | "unshareNet" // without it, TCP and /dev/tcp reach the host's listeners
  | "rebindWorkDir"; // without it, a work dir under /tmp is hidden (and a tmpfs copy is writable)

export const CONFINE_STEPS: readonly ConfineStep[] = ["capDrop", "procSysRo", "seccompUnix", "unshareNet", "rebindWorkDir"];

export interface ConfineOptions {
  /** The work dir: visible read-only inside, the command's cwd. */
  cwd: string;
  /** bwrap binary; default `bwrap` from PATH. */
  bwrap?: string;
  /** Steps to leave out (tests only: proves each step's test can fail). */
  omit?: readonly ConfineStep[];
  /**
   * Directories bound read-write inside (after the work dir). For observers, not for the gate: a
   * scratch copy whose changes are then compared, so an effect is seen rather than only refused.
   */
  writable?: readonly string[];
}

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EACCES = 13;
const EPERM = 1;
const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
/** socket(2)'s number per arch. socketpair stays allowed: it makes an unconnected pair, reaching nothing outside. */
const SOCKET_NR = { x86_64: 41, aarch64: 198 } as const;

type Insn = { code: number; jt?: string; jf?: string; k: number; label?: string };

/**
 * The seccomp program refusing `socket(AF_UNIX, …)` with EACCES on x86_64 and aarch64; any other
 * architecture (i386 socketcall, x32) is refused with EPERM so it cannot slip past the check.
 */
export function unixSocketFilter(): Uint8Array {
  const prog: Insn[] = [
    { code: LD_W_ABS, k: 4 }, // seccomp_data.arch
    { code: JEQ_K, k: AUDIT_ARCH_X86_64, jt: "x86", jf: "next" },
    { code: JEQ_K, k: AUDIT_ARCH_AARCH64, jt: "arm", jf: "deny" },
    { label: "x86", code: LD_W_ABS, k: 0 }, // seccomp_data.nr
    { code: JGE_K, k: X32_SYSCALL_BIT, jt: "deny", jf: "next" },
    { code: JEQ_K, k: SOCKET_NR.x86_64, jt: "arg", jf: "allow" },
    { label: "arm", code: LD_W_ABS, k: 0 },
    { code: JEQ_K, k: SOCKET_NR.aarch64, jt: "arg", jf: "allow" },
    { label: "arg", code: LD_W_ABS, k: 16 }, // low word of args[0] (little-endian)
    { code: JEQ_K, k: AF_UNIX, jt: "refuse", jf: "allow" },
    { label: "allow", code: RET_K, k: RET_ALLOW },
    { label: "refuse", code: RET_K, k: RET_ERRNO | EACCES },
    { label: "deny", code: RET_K, k: RET_ERRNO | EPERM },
  ];
  const at = new Map<string, number>();
  prog.forEach((insn, i) => {
    if (insn.label) at.set(insn.label, i);
  });
  const rel = (from: number, target: string | undefined): number => {
    if (target === undefined) return 0;
    const to = target === "next" ? from + 1 : (at.get(target) ?? -1);
    const off = to - (from + 1);
    if (off < 0 || off > 255) throw new Error(`seccomp jump out of range: ${target}`);
    return off;
  };
  const out = new Uint8Array(prog.length * 8);
  const view = new DataView(out.buffer);
  prog.forEach((insn, i) => {
    view.setUint16(i * 8, insn.code, true);
    view.setUint8(i * 8 + 2, rel(i, insn.jt));
    view.setUint8(i * 8 + 3, rel(i, insn.jf));
    view.setUint32(i * 8 + 4, insn.k >>> 0, true);
  });
  return out;
}

/** Single-quote for bash. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The filter as a bash `printf` format: every byte as `\xHH` (bash's printf writes NUL bytes too). */
function printfBytes(bytes: Uint8Array): string {
  return [...bytes].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("");
}

/**
 * The bwrap argument list (before `--`). TMPDIR is a fresh tmpfs; the work dir is re-bound read-only
 * after the tmpfs so a work dir under /tmp stays visible.
 */
export function bwrapArgs(opts: ConfineOptions): string[] {
  const omit = new Set(opts.omit ?? []);
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  if (!omit.has("procSysRo")) args.push("--ro-bind", "/proc/sys", "/proc/sys");
  args.push("--tmpfs", "/tmp");
  if (!omit.has("rebindWorkDir")) args.push("--ro-bind", opts.cwd, opts.cwd);
  for (const dir of opts.writable ?? []) args.push("--bind", dir, dir);
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", opts.cwd);
  if (!omit.has("unshareNet")) args.push("--unshare-net");
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--new-session", "--die-with-parent");
  if (!omit.has("capDrop")) args.push("--cap-drop", "ALL");
  return args;
}

/**
 * The bash text that runs `command` confined. The seccomp program is fed on fd 3 by process
 * substitution, so the result needs no file. Claude's shell defines `grep` as a function (its bundled
 * ugrep) that `bash -c` loses; inside, `grep` is the system grep — output may differ in format.
 */
export function confineCommand(command: string, opts: ConfineOptions): string {
  const omit = new Set(opts.omit ?? []);
  const bwrap = opts.bwrap ?? "bwrap";
  const args = bwrapArgs(opts).map(shellQuote).join(" ");
  const seccomp = omit.has("seccompUnix") ? "" : ` --seccomp 3 3< <(printf '${printfBytes(unixSocketFilter())}')`;
  return `${shellQuote(bwrap)} ${args}${seccomp} -- /bin/bash -c ${shellQuote(command)}`;
}

/** What to tell the user when bwrap is missing or refuses to start (exit before running anything). */
export const CONFINE_HOWTO =
  "install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap; Fedora: dnf install bubblewrap) and allow " +
  "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ " +
  "kernel.apparmor_restrict_unprivileged_userns=0); inside a container run with --privileged or a seccomp " +
  "profile that permits clone(CLONE_NEWUSER); or run proctor gate with --confine off (classifier only, weaker: no confinement)";
