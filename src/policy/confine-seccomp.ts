/**
 * The jail's seccomp program: an allowlist. A syscall runs only when it is on ALLOWED_SYSCALLS or
 * passes its argument check; a named dangerous call is refused with EPERM, any other number
 * (unknown, newer than the table) with ENOSYS, so libc falls back rather than the process dying.
 * Nothing is ever killed: a refusal is an error the program can print.
 *
 * Pure: builds classic BPF bytes (struct sock_filter[], little-endian) that bubblewrap loads with
 * `--seccomp FD`. x86_64 and aarch64; any other architecture seen at run time (i386 compat, x32)
 * is refused outright, so a 32-bit entry point cannot slip past the checks.
 */
import { ALLOWED_SYSCALLS, REFUSED_SYSCALLS, SYSCALL_NR, type SyscallName } from "./confine-syscalls.js";

/** Parts of the program a test can leave out, each to watch the escape it closes succeed. */
export type SeccompPart =
  | "unixSocket" // socket(AF_UNIX) refused; other families but INET, INET6 and NETLINK refused too
  | "socketpairStream" // socketpair only AF_UNIX SOCK_STREAM (a DGRAM one can sendto any named socket)
  | "ioUring" // io_uring_* refused (IORING_OP_SOCKET makes a socket without socket(2))
  | "keyring" // keyctl/add_key/request_key refused (the caller's keyring outlives the jail)
  | "namespaces" // unshare/setns, clone with namespace flags, clone3 and the mount calls refused (no fresh userns, no cgroup2 mount)
  | "locks" // flock and fcntl locks/leases refused (a lock on a read-only fd blocks processes outside)
  | "debug"; // ptrace and process_vm_* refused (an observer that runs strace inside leaves this out)

export const SECCOMP_PARTS: readonly SeccompPart[] = ["unixSocket", "socketpairStream", "ioUring", "keyring", "namespaces", "locks", "debug"];

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const JA = 0x05;
const AND_K = 0x54;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;

/** errno values (the same on x86_64 and aarch64). */
export const ERRNO = { EPERM: 1, EACCES: 13, ENOLCK: 37, ENOSYS: 38, EAFNOSUPPORT: 97 } as const;

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const SOCK_STREAM = 1;
const SOCK_NONBLOCK = 0x800;
const SOCK_CLOEXEC = 0x80000;
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (Docker's mask). */
const CLONE_NAMESPACES = 0x7e020000;
/** fcntl commands that take a lock or lease: F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE. */
const FCNTL_LOCKS = [6, 7, 37, 38, 1024];
/** ioctls that push input into a terminal (also stopped by bwrap --new-session). */
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
/** personality values Docker allows: PER_LINUX, UNAME26, ADDR_NO_RANDOMIZE (and both), the query 0xffffffff. */
const PERSONALITIES = [0, 8, 0x20000, 0x20008, 0xffffffff];

/** `ja`: the label of an unconditional jump (BPF_JA's 32-bit offset, for the jump to the second architecture). */
type Insn = { code: number; k: number; jt?: string; jf?: string; label?: string; ja?: string };
type Arch = 0 | 1;

const arg = (i: number): number => 16 + 8 * i; // low word of args[i] (little-endian)
const ret = (k: number, label?: string): Insn => ({ code: RET_K, k, ...(label ? { label } : {}) });
const errno = (e: number, label?: string): Insn => ret(RET_ERRNO | e, label);

let unique = 0;
const fresh = (s: string): string => `${s}#${unique++}`;

/** A syscall's arg check, run after its number matched; every path ends in a return. */
function argCheck(name: SyscallName, omit: ReadonlySet<SeccompPart>, opts: FilterOptions): Insn[] | "allow" | number {
  switch (name) {
    case "socket": {
      if (omit.has("unixSocket")) return "allow";
      const ok = fresh("ok");
      const unix = fresh("unix");
      return [
        { code: LD_W_ABS, k: arg(0) },
        { code: JEQ_K, k: AF_INET, jt: ok },
        { code: JEQ_K, k: AF_INET6, jt: ok },
        { code: JEQ_K, k: AF_NETLINK, jt: ok },
        { code: JEQ_K, k: AF_UNIX, jt: opts.allowUnixSockets ? ok : unix },
        errno(ERRNO.EAFNOSUPPORT),
        errno(ERRNO.EACCES, unix),
        ret(RET_ALLOW, ok),
      ];
    }
    case "socketpair": {
      if (omit.has("socketpairStream") || opts.allowUnixSockets) return "allow";
      const no = fresh("no");
      return [
        { code: LD_W_ABS, k: arg(0) },
        { code: JEQ_K, k: AF_UNIX, jf: no },
        { code: LD_W_ABS, k: arg(1) },
        { code: AND_K, k: ~(SOCK_NONBLOCK | SOCK_CLOEXEC) >>> 0 },
        { code: JEQ_K, k: SOCK_STREAM, jf: no },
        ret(RET_ALLOW),
        errno(ERRNO.EACCES, no),
      ];
    }
    case "clone": {
      if (omit.has("namespaces")) return "allow";
      const no = fresh("no");
      return [{ code: LD_W_ABS, k: arg(0) }, { code: JSET_K, k: CLONE_NAMESPACES, jt: no }, ret(RET_ALLOW), errno(ERRNO.EPERM, no)];
    }
    case "clone3":
      return omit.has("namespaces") ? "allow" : ERRNO.ENOSYS; // its flags sit in memory seccomp cannot read: libc falls back to clone
    case "unshare":
    case "setns":
    case "mount":
    case "umount2":
    case "pivot_root":
    case "move_mount":
    case "fsopen":
    case "fsconfig":
    case "fsmount":
    case "fspick":
    case "open_tree":
    case "mount_setattr":
      return omit.has("namespaces") ? "allow" : ERRNO.EPERM;
    case "io_uring_setup":
    case "io_uring_enter":
    case "io_uring_register":
      return omit.has("ioUring") ? "allow" : ERRNO.EPERM;
    case "ptrace":
    case "process_vm_readv":
    case "process_vm_writev":
      return omit.has("debug") ? "allow" : ERRNO.EPERM;
    case "keyctl":
    case "add_key":
    case "request_key":
      return omit.has("keyring") ? "allow" : ERRNO.EPERM;
    case "flock":
      return omit.has("locks") ? "allow" : ERRNO.ENOLCK;
    case "fcntl": {
      if (omit.has("locks")) return "allow";
      const no = fresh("no");
      return [{ code: LD_W_ABS, k: arg(1) }, ...FCNTL_LOCKS.map((k) => ({ code: JEQ_K, k, jt: no })), ret(RET_ALLOW), errno(ERRNO.ENOLCK, no)];
    }
    case "ioctl": {
      const no = fresh("no");
      return [{ code: LD_W_ABS, k: arg(1) }, { code: JEQ_K, k: TIOCSTI, jt: no }, { code: JEQ_K, k: TIOCLINUX, jt: no }, ret(RET_ALLOW), errno(ERRNO.EPERM, no)];
    }
    case "personality": {
      const ok = fresh("ok");
      return [{ code: LD_W_ABS, k: arg(0) }, ...PERSONALITIES.map((k) => ({ code: JEQ_K, k, jt: ok })), errno(ERRNO.EPERM), ret(RET_ALLOW, ok)];
    }
    default:
      return REFUSED_SYSCALLS.includes(name) ? ERRNO.EPERM : "allow";
  }
}

const CHECKED: readonly SyscallName[] = ["socket", "socketpair", "clone", "clone3", "fcntl", "flock", "ioctl", "personality"];

/**
 * One architecture's checks. The known numbers are sorted and runs of neighbours with the same
 * plain answer merged into ranges, so the program stays a few hundred instructions (small enough
 * to pass inline in the command text); a number between ranges, or past the last, gets ENOSYS.
 */
function archChain(archIx: Arch, omit: ReadonlySet<SeccompPart>, opts: FilterOptions): Insn[] {
  const byNr = new Map<number, Insn[] | "allow" | number>();
  for (const name of new Set<SyscallName>([...ALLOWED_SYSCALLS, ...REFUSED_SYSCALLS, ...CHECKED])) {
    const nr = SYSCALL_NR[name][archIx];
    if (nr !== null) byNr.set(nr, argCheck(name, omit, opts));
  }
  const ranges: { lo: number; hi: number; action: Insn[] | "allow" | number }[] = [];
  for (const nr of [...byNr.keys()].sort((a, b) => a - b)) {
    const action = byNr.get(nr) as Insn[] | "allow" | number;
    const last = ranges.at(-1);
    if (last && last.hi === nr - 1 && !Array.isArray(action) && last.action === action) last.hi = nr;
    else ranges.push({ lo: nr, hi: nr, action });
  }
  const out: Insn[] = [{ code: LD_W_ABS, k: 0 }]; // seccomp_data.nr
  if (archIx === 0) out.push({ code: JGE_K, k: X32_SYSCALL_BIT, jf: "x32ok" }, errno(ERRNO.EPERM), { code: -1, k: 0, label: "x32ok" });
  let prevHi = -1;
  for (const r of ranges) {
    const next = fresh("range");
    const gap = fresh("gap");
    const hasGap = r.lo > prevHi + 1;
    out.push({ code: JGE_K, k: r.hi + 1, jt: next });
    if (hasGap) out.push({ code: JGE_K, k: r.lo, jf: gap });
    out.push(...(r.action === "allow" ? [ret(RET_ALLOW)] : typeof r.action === "number" ? [errno(r.action)] : r.action));
    if (hasGap) out.push(errno(ERRNO.ENOSYS, gap));
    out.push({ code: -1, k: 0, label: next }); // -1: labels the next instruction
    prevHi = r.hi;
  }
  out.push(errno(ERRNO.ENOSYS));
  return out;
}

/** Resolve labels (dropping the -1 markers, which label the instruction after them) into bytes. */
function assemble(prog: Insn[]): Uint8Array {
  const real: Insn[] = [];
  const at = new Map<string, number>();
  const pending: string[] = [];
  for (const insn of prog) {
    if (insn.code === -1) {
      if (insn.label) pending.push(insn.label);
      continue;
    }
    for (const l of pending.splice(0)) at.set(l, real.length);
    if (insn.label) at.set(insn.label, real.length);
    real.push(insn);
  }
  if (pending.length > 0) throw new Error("seccomp program ends in a label");
  if (real.length > 4096) throw new Error(`seccomp program too long (${real.length} > 4096 instructions)`);
  const rel = (from: number, target: string | undefined): number => {
    if (target === undefined) return 0;
    const to = target === "next" ? from + 1 : (at.get(target) ?? Number.NaN);
    const off = to - (from + 1);
    if (!(off >= 0 && off <= 255)) throw new Error(`seccomp jump out of range: ${target}`);
    return off;
  };
  const out = new Uint8Array(real.length * 8);
  const view = new DataView(out.buffer);
  real.forEach((insn, i) => {
    if (insn.ja !== undefined) insn.k = (at.get(insn.ja) ?? Number.NaN) - (i + 1);
    if (!(insn.k >= 0)) throw new Error(`seccomp jump to an unknown label: ${insn.ja}`);
    view.setUint16(i * 8, insn.code, true);
    view.setUint8(i * 8 + 2, rel(i, insn.jt));
    view.setUint8(i * 8 + 3, rel(i, insn.jf));
    view.setUint32(i * 8 + 4, insn.k >>> 0, true);
  });
  return out;
}

/** Variants of the program that are not a part left out. */
export interface FilterOptions {
  /**
   * `socket(AF_UNIX)` and every `socketpair` allowed: a whole trial's first stage, under which the
   * forwarder to the mock model (socat, outside's unix socket → the jail's loopback port) runs;
   * socat 1.7 also makes a SOCK_DGRAM pair for its own diagnostics, and aborts without it. The
   * second stage, applied to claude alone, refuses both again (harness/claude/jail.ts).
   */
  readonly allowUnixSockets?: boolean;
}

/** The jail's seccomp program, with `omit` parts left out (tests only). */
export function jailFilter(omit: readonly SeccompPart[] = [], opts: FilterOptions = {}): Uint8Array {
  const o = new Set(omit);
  return assemble([
    { code: LD_W_ABS, k: 4 }, // seccomp_data.arch
    { code: JEQ_K, k: AUDIT_ARCH_X86_64, jt: "x86" },
    { code: JEQ_K, k: AUDIT_ARCH_AARCH64, jf: "deny" },
    { code: JA, k: 0, ja: "arm" },
    errno(ERRNO.EPERM, "deny"),
    { code: -1, k: 0, label: "x86" },
    ...archChain(0, o, opts),
    { code: -1, k: 0, label: "arm" },
    ...archChain(1, o, opts),
  ]);
}

/**
 * What the program answers for one call, read by interpreting the bytes (the tests' oracle runs
 * this against an independent table). `args` are the low words of the arguments.
 */
export function runFilter(prog: Uint8Array, data: { arch: number; nr: number; args?: readonly number[] }): { action: "allow" } | { action: "errno"; errno: number } | { action: "other"; value: number } {
  const view = new DataView(prog.buffer, prog.byteOffset, prog.byteLength);
  const word = (k: number): number => {
    if (k === 0) return data.nr >>> 0;
    if (k === 4) return data.arch >>> 0;
    if (k >= 16 && k < 64 && (k - 16) % 8 === 0) return (data.args?.[(k - 16) / 8] ?? 0) >>> 0;
    if (k >= 16 && k < 64) return 0; // a high word
    throw new Error(`load of offset ${k}`);
  };
  let acc = 0;
  for (let pc = 0; pc < prog.length / 8; ) {
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    switch (code) {
      case LD_W_ABS:
        acc = word(k);
        pc++;
        break;
      case AND_K:
        acc = (acc & k) >>> 0;
        pc++;
        break;
      case JEQ_K:
        pc += 1 + (acc === k ? jt : jf);
        break;
      case JA:
        pc += 1 + k;
        break;
      case JGE_K:
        pc += 1 + (acc >= k ? jt : jf);
        break;
      case JSET_K:
        pc += 1 + ((acc & k) !== 0 ? jt : jf);
        break;
      case RET_K:
        if (k === RET_ALLOW) return { action: "allow" };
        if ((k & 0xffff0000) >>> 0 === RET_ERRNO) return { action: "errno", errno: k & 0xffff };
        return { action: "other", value: k };
      default:
        throw new Error(`unknown BPF opcode ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error("fell off the end of the program");
}

export const ARCH = { x86_64: AUDIT_ARCH_X86_64, aarch64: AUDIT_ARCH_AARCH64 } as const;
