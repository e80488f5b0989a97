/**
 * The jail: confinement for a command the gate allowed below the write rung (and for observers that
 * want a box). Default-deny: a seccomp allowlist (confine-seccomp.ts), a filesystem that shows only
 * what programs need (system dirs, the work dir, the paths passed in) read-only, a fresh /dev and
 * /proc, a size-bounded /tmp, every namespace unshared (network included), no capabilities, no
 * inherited descriptors, and resource limits. A wrong static reading becomes a failed command
 * instead of a write. Builds the command text and the seccomp program (reading only which system
 * dirs are links); it never spawns.
 *
 * Each hardening step is named so a test can drop one and watch the escape it closes succeed.
 */
import { lstatSync, readlinkSync } from "node:fs";
import { jailFilter, SECCOMP_PARTS, type SeccompPart } from "./confine-seccomp.js";

export { jailFilter, type SeccompPart } from "./confine-seccomp.js";

/** A hardening step of the recipe; each closes an escape measured as root. */
export type ConfineStep =
  | "capDrop" // without it, root inside remounts `/` read-write
  | "procSysRo" // without it, root inside writes a global sysctl
  | "unshareNet" // without it, TCP and /dev/tcp reach the host's listeners
  | "fsAllowlist" // without it, the host's / is visible (read-only): its FIFOs, sockets and /tmp too
  | "closeFds" // without it, descriptors the caller left open pass in (and /proc/self/fd/N reopens them for writing)
  | "tmpSize" // without it, /tmp and /dev/shm are tmpfs of half the machine's memory
  | "limits" // without them, no bound on processes, memory, CPU time or file size
  | "landlock" // without it, a FIFO on a visible read-only path (the work dir) takes writes: a read-only mount does not stop them
  | "seccomp" // the whole syscall allowlist
  | SeccompPart; // one part of it

export const CONFINE_STEPS: readonly ConfineStep[] = ["capDrop", "procSysRo", "unshareNet", "fsAllowlist", "closeFds", "tmpSize", "limits", "landlock", "seccomp", ...SECCOMP_PARTS];

/** Resource bounds inside the jail. */
export interface ConfineLimits {
  /** Processes and threads (RLIMIT_NPROC; not enforced by the kernel for a caller that is root outside: docs/safety.md). */
  readonly processes: number;
  /** Address space of each process, MiB (RLIMIT_AS). */
  readonly memoryMiB: number;
  /** CPU time of each process, seconds (RLIMIT_CPU). */
  readonly cpuSeconds: number;
  /** Largest file a process may write, MiB (RLIMIT_FSIZE). */
  readonly fileMiB: number;
  /** Size of the jail's /tmp and of /dev/shm, MiB each. */
  readonly tmpMiB: number;
}

/** Generous for reads (node and git included), small enough that a fork bomb or a /tmp fill ends. */
export const DEFAULT_LIMITS: ConfineLimits = { processes: 512, memoryMiB: 16384, cpuSeconds: 600, fileMiB: 256, tmpMiB: 256 };

/** The environment variable that sets each limit. */
export const LIMIT_ENV: Readonly<Record<keyof ConfineLimits, string>> = {
  processes: "PROCTOR_JAIL_PROCESSES",
  memoryMiB: "PROCTOR_JAIL_MEMORY_MIB",
  cpuSeconds: "PROCTOR_JAIL_CPU_SECONDS",
  fileMiB: "PROCTOR_JAIL_FILE_MIB",
  tmpMiB: "PROCTOR_JAIL_TMP_MIB",
};

/** The limits, with any set by PROCTOR_JAIL_* in `env`; a value that is not a positive whole number is an error naming it. */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): ConfineLimits {
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [key, name] of Object.entries(LIMIT_ENV)) {
    const v = env[name];
    if (v === undefined || v === "") continue;
    if (!/^[1-9][0-9]{0,9}$/.test(v)) throw new Error(`${name}=${JSON.stringify(v)} is not a positive whole number; set it to one (default ${DEFAULT_LIMITS[key as keyof ConfineLimits]}) or unset it`);
    out[key] = Number(v);
  }
  return out as unknown as ConfineLimits;
}

export interface ConfineOptions {
  /** The work dir: visible read-only inside, the command's cwd. Never `/` (the host's whole tree). */
  cwd: string;
  /** bwrap binary; default `bwrap` from PATH. */
  bwrap?: string;
  /** Steps to leave out (tests only: proves each step's test can fail). */
  omit?: readonly ConfineStep[];
  /** More paths shown read-only (where missing, skipped): the binaries and project paths the command needs. */
  visible?: readonly string[];
  /**
   * Directories bound read-write inside (after the work dir). For observers, not for the gate: a
   * scratch copy whose changes are then compared, so an effect is seen rather than only refused.
   */
  writable?: readonly string[];
  /** Resource bounds (default DEFAULT_LIMITS). */
  limits?: Partial<ConfineLimits>;
  /**
   * Shell words added to bwrap's mounts as they are (not quoted), before the read-only remounts:
   * for paths only the running shell knows, such as `"$CLAUDE_CODE_EXECPATH"`. The caller quotes them.
   */
  rawArgs?: string;
  /**
   * The Perl that sets up the inside in one exec (closes descriptors, sets the limits, applies
   * Landlock and the seccomp program, execs bash): default `/usr/bin/perl`. `false` where there is
   * none: a bash prelude does the first two, bwrap loads the seccomp program, and Landlock is
   * skipped, saying so on stderr (NO_LANDLOCK).
   */
  perl?: string | false;
  /** Variables removed inside (default STARTUP_HOOK_VARS). */
  unsetEnv?: readonly string[];
  /** The architecture the text runs on (default this process's): the Perl stage names syscalls by number. */
  arch?: string;
  /**
   * Set TMPDIR to the jail's temp dir (default true). A whole trial keeps its own TMPDIR (inside
   * the trial's writable root), so it says false.
   */
  setTmpdir?: boolean;
}

/**
 * Variables that make perl or bash run code at start-up (`PERL5OPT=-d` with `PERL5DB`, `BASH_ENV`,
 * `ENV`): inside, the set-up stage (Perl, or the bash prelude) starts before its layers exist, so a
 * caller's environment must not reach it with them.
 */
export const STARTUP_HOOK_VARS: readonly string[] = ["PERL5OPT", "PERL5DB", "BASH_ENV", "ENV"];

/** What the jail shows of the host, read-only, when present: what programs need to run. */
export const SYSTEM_PATHS: readonly string[] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"];

/** The target of a system dir that is a relative link within the root (`/bin` → `usr/bin`), else undefined. */
function systemLink(p: string): string | undefined {
  try {
    if (!lstatSync(p).isSymbolicLink()) return undefined;
    const target = readlinkSync(p);
    // Only a link that stays among the shown system dirs: anything else is bound as it resolves.
    const resolved = target.startsWith("/") ? target : `/${target}`;
    return SYSTEM_PATHS.some((d) => d !== p && (resolved === d || resolved.startsWith(`${d}/`))) && !resolved.includes("..") ? target : undefined;
  } catch {
    return undefined;
  }
}

/** Paths the jail never shows whole: the host's root, its kernel and device trees, its temp and runtime dirs. */
const NEVER_WHOLE = ["/", "/proc", "/sys", "/dev", "/tmp", "/run", "/var", "/var/run", "/var/tmp", "/home", "/root", "/mnt", "/media"];

/** Why `dir` cannot be the jail's work dir, or undefined. */
export function unsafeWorkDir(dir: string): string | undefined {
  if (!dir.startsWith("/")) return `the work dir ${JSON.stringify(dir)} is not an absolute path`;
  const d = dir.replace(/\/+$/, "") || "/";
  if (d === "/") return "the work dir is / (binding it would show the host's whole tree, its /proc, /dev and /tmp included)";
  for (const p of ["/proc", "/sys", "/dev"]) if (d === p || d.startsWith(`${p}/`)) return `the work dir ${d} is in the host's ${p}`;
  return undefined;
}

/** Single-quote for bash. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The install prefixes of PATH entries outside the system dirs, for `visible`: `~/.pyenv/shims`
 * shows `~/.pyenv` (the shim runs `pyenv` beside it), `node_modules/.bin` shows `node_modules` (its
 * links point there), a `bin` its parent — unless that parent is a dir the jail never shows whole
 * (or HOME), when only the entry itself is shown.
 */
export function pathPrefixes(path: string | undefined, home: string | undefined): string[] {
  const out = new Set<string>();
  const homeDir = home?.replace(/\/+$/, "");
  for (const raw of (path ?? "").split(":")) {
    const dir = raw.replace(/\/+$/, "");
    if (!dir.startsWith("/") || dir.includes("/../") || dir.endsWith("/..")) continue;
    if (SYSTEM_PATHS.some((s) => dir === s || dir.startsWith(`${s}/`))) continue;
    const base = dir.slice(dir.lastIndexOf("/") + 1);
    const parent = dir.slice(0, dir.lastIndexOf("/")) || "/";
    const wide = ["bin", "sbin", "shims", ".bin"].includes(base) && !NEVER_WHOLE.includes(parent) && parent !== homeDir;
    const shown = wide ? parent : dir;
    if (NEVER_WHOLE.includes(shown) || shown === homeDir) continue;
    out.add(shown);
  }
  return [...out];
}

/** The bwrap argument list (before `--`). Throws on a work dir the jail cannot show safely (unsafeWorkDir). */
export function bwrapArgs(opts: ConfineOptions): string[] {
  const { mounts, finish } = bwrapArgParts(opts);
  return [...mounts, ...finish];
}

/** The arguments in two parts: the mounts, and what seals them (read-only remounts, env, cwd); `rawArgs` (or more mounts) go between. */
export function bwrapArgParts(opts: ConfineOptions): { mounts: string[]; finish: string[] } {
  const why = unsafeWorkDir(opts.cwd);
  if (why) throw new Error(`cannot confine: ${why}; run the command from a project directory`);
  const omit = new Set(opts.omit ?? []);
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const args = ["--unshare-all"];
  if (omit.has("unshareNet")) args.push("--share-net");
  args.push("--die-with-parent", "--new-session");
  if (!omit.has("capDrop")) args.push("--cap-drop", "ALL");
  if (omit.has("fsAllowlist")) args.push("--ro-bind", "/", "/");
  else {
    for (const p of SYSTEM_PATHS) {
      // A merged-/usr host's /bin is a link into /usr: the same link inside costs no mount (each bind
      // and its read-only remount make bwrap re-read the mount table).
      const link = systemLink(p);
      args.push(...(link === undefined ? ["--ro-bind-try", p, p] : ["--symlink", link, p]));
    }
  }
  args.push("--dev", "/dev", "--proc", "/proc");
  if (!omit.has("procSysRo")) args.push("--ro-bind", "/proc/sys", "/proc/sys");
  const size = (mib: number) => (omit.has("tmpSize") ? [] : ["--size", String(mib * 1024 * 1024)]);
  const tmp = jailTmp(opts);
  args.push(...size(limits.tmpMiB), "--tmpfs", "/tmp");
  if (!omit.has("tmpSize")) args.push(...size(limits.tmpMiB), "--tmpfs", "/dev/shm");
  // A work dir beneath a writable dir (a whole trial's work dir in its root) is shown by that bind.
  if (!(opts.writable ?? []).some((w) => opts.cwd === w || opts.cwd.startsWith(`${w}/`))) args.push("--ro-bind", opts.cwd, opts.cwd);
  // A path beneath another shown one (or the work dir) is already shown: one mount fewer each.
  const shown = [...new Set((opts.visible ?? []).filter((p) => p.startsWith("/") && p !== "/").map((p) => p.replace(/\/+$/, "")))];
  const beneath = (p: string, dir: string) => p !== dir && p.startsWith(`${dir}/`);
  for (const p of shown) if (!shown.some((q) => beneath(p, q)) && !beneath(p, opts.cwd)) args.push("--ro-bind-try", p, p);
  for (const dir of opts.writable ?? []) args.push("--bind", dir, dir);
  const finish: string[] = [];
  if (tmp !== "/tmp") finish.push(...size(limits.tmpMiB), "--tmpfs", tmp, "--remount-ro", "/tmp");
  // The jail's own root and /dev are tmpfs the (capability-less) root inside could fill: read-only.
  if (!omit.has("fsAllowlist")) finish.push("--remount-ro", "/dev", "--remount-ro", "/");
  if (opts.setTmpdir !== false) finish.push("--setenv", "TMPDIR", tmp);
  // Start-up hooks the set-up stage's own interpreter would run before any layer is applied.
  for (const name of opts.unsetEnv ?? STARTUP_HOOK_VARS) finish.push("--unsetenv", name);
  finish.push("--chdir", opts.cwd);
  return { mounts: args, finish };
}

/**
 * The jail's writable temp dir: /tmp, unless the work dir or a shown path lies under /tmp (a clone
 * there, shown read-only). Landlock allows writes beneath a directory, bind mounts included, so a
 * FIFO in such a work dir would be writable through a /tmp rule: then /tmp is read-only and TMPDIR
 * a tmpfs below it.
 */
export function jailTmp(opts: Pick<ConfineOptions, "cwd" | "visible" | "writable">): string {
  const inside = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);
  const readOnly = [opts.cwd, ...(opts.visible ?? [])].filter((p) => !(opts.writable ?? []).some((w) => inside(p, w)));
  return readOnly.some((p) => inside(p, "/tmp")) ? "/tmp/.proctor-jail-tmp" : "/tmp";
}

// Landlock filesystem rights (linux/landlock.h): every right that writes, makes or removes, by ABI.
const LL_WRITE_FILE = 1 << 1;
const LL_ABI1_WRITES = LL_WRITE_FILE | 0x1ff0; // REMOVE_DIR … MAKE_SYM (bits 4-12)
const LL_REFER = 1 << 13; // ABI 2
const LL_TRUNCATE = 1 << 14; // ABI 3
const LL_IOCTL_DEV = 1 << 15; // ABI 5
/** Said on stderr, never silently, when the Landlock layer cannot be applied. */
export const NO_LANDLOCK = "proctor jail: Landlock not applied: a FIFO on a shown read-only path takes writes (docs/safety.md, The jail)";
/** landlock_create_ruleset, _add_rule, _restrict_self: the same numbers on x86_64 and aarch64. */
const LL_NR = [444, 445, 446] as const;
/** O_PATH | O_CLOEXEC (the same on x86_64 and aarch64). */
const O_PATH_CLOEXEC = 0x280000;

/**
 * The Perl program that applies Landlock and execs the command: writes (opening for writing —
 * FIFOs and devices included —, creating, removing, renaming, truncating) are allowed only beneath
 * the jail's temp dir, /dev and the writable dirs; everything else visible stays readable. Perl because it is on
 * nearly every Linux (Debian's perl-base is essential) and starts in a few ms; its `syscall` reaches
 * Landlock without a compiler. A kernel without Landlock (ABI < 1), or no perl, runs the command
 * without it, saying so on stderr (NO_LANDLOCK; the read-only binds still refuse every write but a
 * FIFO's); a Landlock call that fails on a kernel that has it stops the command.
 */
export function landlockPerl(tmp: string, writable: readonly string[]): string {
  return [landlockRules(tmp, writable), 'exec "/bin/bash", "-c", $ARGV[0] or die "proctor jail: exec bash: $!\\n";'].join(" ");
}

/** Perl statements applying Landlock's write rule (landlockPerl's first part), or saying on stderr that this kernel has none. */
function landlockRules(tmp: string, writable: readonly string[]): string {
  const dirs = [tmp, "/dev", ...writable].map((d) => `'${d.replace(/[\\']/g, "\\$&")}'`).join(", ");
  return [
    `my $abi = syscall(${LL_NR[0]}, 0, 0, 1);`,
    "if ($abi >= 1) {",
    `  my $h = ${LL_ABI1_WRITES}; $h |= ${LL_REFER} if $abi >= 2; $h |= ${LL_TRUNCATE} if $abi >= 3; $h |= ${LL_IOCTL_DEV} if $abi >= 5;`,
    `  my $rs = syscall(${LL_NR[0]}, pack("Q", $h), 8, 0); die "proctor jail: landlock_create_ruleset: $!\\n" if $rs < 0;`,
    `  for my $d (${dirs}) { sysopen(my $fh, $d, ${O_PATH_CLOEXEC}) or next; syscall(${LL_NR[1]}, $rs, 1, pack("Ql", $h, fileno($fh)), 0) == 0 or die "proctor jail: landlock_add_rule $d: $!\\n"; }`,
    `  syscall(${LL_NR[2]}, $rs, 0) == 0 or die "proctor jail: landlock_restrict_self: $!\\n";`,
    `} else { print STDERR "${NO_LANDLOCK} (this kernel has no Landlock)\\n"; }`,
  ].join(" ");
}

/** Syscall numbers the Perl stages use, by architecture (Landlock's are the same on both: LL_NR). */
export const SYSCALL_NR: Readonly<Record<string, { readonly close: number; readonly prlimit64: number; readonly prctl: number; readonly seccomp: number }>> = {
  x64: { close: 3, prlimit64: 302, prctl: 157, seccomp: 317 },
  arm64: { close: 57, prlimit64: 261, prctl: 167, seccomp: 277 },
};

/** RLIMIT_* numbers (asm-generic, the same on x86_64 and aarch64). */
const RLIMIT = { cpu: 0, fsize: 1, nproc: 6, as: 9 } as const;

/**
 * The Perl program that sets up the inside and execs the command, in one process start (a bash
 * prelude, a Perl for Landlock and bwrap's seccomp descriptor cost three): close every descriptor
 * above 2 (a caller's open file must not pass in, where /proc/self/fd/N would reopen it for
 * writing); set each limit to the smaller of the wanted value and the hard limit already held (one
 * that cannot be set stops the command); apply Landlock's write rule (landlockRules); set
 * no_new_privs and load the seccomp program (hex in argv[0], none when empty); exec bash -c
 * argv[2] (argv[1] is `proctor-jail`, marking the command in the text as the bash form does). Every step a test may leave out is left out of the text.
 */
export function jailPerl(opts: Pick<ConfineOptions, "cwd" | "visible" | "omit" | "limits" | "writable">, nr: (typeof SYSCALL_NR)[string]): string {
  const omit = new Set(opts.omit ?? []);
  const l = { ...DEFAULT_LIMITS, ...opts.limits };
  const lines = ["my ($hex, undef, $cmd) = @ARGV;"];
  if (!omit.has("closeFds")) {
    lines.push(`opendir(my $fdd, "/proc/self/fd") or die "proctor jail: /proc/self/fd: $!\\n"; my @fds = grep { /^[0-9]+$/ && $_ > 2 } readdir($fdd); closedir($fdd); syscall(${nr.close}, $_ + 0) for @fds;`);
  }
  if (!omit.has("limits")) {
    const want = [
      [RLIMIT.nproc, l.processes, "processes"],
      [RLIMIT.as, l.memoryMiB * 1024 * 1024, "memory"],
      [RLIMIT.cpu, l.cpuSeconds, "CPU time"],
      [RLIMIT.fsize, l.fileMiB * 1024 * 1024, "file size"],
    ] as const;
    lines.push(
      `for my $r (${want.map(([r, v, what]) => `[${r}, ${v}, "${what}"]`).join(", ")}) { my $old = pack("QQ", 0, 0); syscall(${nr.prlimit64}, 0, $r->[0], 0, $old) == 0 or die "proctor jail: cannot read the $r->[2] limit: $!\\n"; my (undef, $hard) = unpack("QQ", $old); my $v = $hard < $r->[1] ? $hard : $r->[1]; syscall(${nr.prlimit64}, 0, $r->[0], pack("QQ", $v, $v), 0) == 0 or die "proctor jail: cannot bound $r->[2] ($!)\\n"; }`,
    );
  }
  if (!omit.has("landlock")) lines.push(landlockRules(jailTmp(opts), opts.writable ?? []));
  lines.push(`if ($hex ne "") { syscall(${nr.prctl}, 38, 1, 0, 0, 0) == 0 or die "proctor jail: PR_SET_NO_NEW_PRIVS: $!\\n"; my $prog = pack("H*", $hex); syscall(${nr.seccomp}, 1, 0, pack("S x6 P", length($prog) / 8, $prog)) == 0 or die "proctor jail: seccomp: $!\\n"; }`);
  lines.push('exec { "/bin/bash" } "/bin/bash", "-c", $cmd or die "proctor jail: exec bash: $!\\n";');
  return lines.join(" ");
}

/**
 * The shell run first inside where there is no Perl: close every descriptor above 2 (a caller's open file must not pass in,
 * where /proc/self/fd/N would reopen it for writing), set the limits (a limit the caller already
 * holds lower stays; one that cannot be set at all stops the command), then exec the command.
 */
export function jailPrelude(opts: Pick<ConfineOptions, "cwd" | "visible" | "omit" | "limits" | "writable">): string {
  const omit = new Set(opts.omit ?? []);
  const l = { ...DEFAULT_LIMITS, ...opts.limits };
  const parts: string[] = [];
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not a template
  if (!omit.has("closeFds")) parts.push('for __f in /proc/self/fd/*; do __n=${__f##*/}; [ "$__n" -gt 2 ] 2>/dev/null && eval "exec $__n>&-"; done; unset __f __n');
  if (!omit.has("limits")) {
    const lim = (flag: string, value: number, what: string) =>
      `{ ulimit -${flag} ${value} 2>/dev/null || [ "$(ulimit -H -${flag})" != unlimited ] || { echo "proctor jail: cannot bound ${what} (ulimit -${flag} ${value})" >&2; exit 126; }; }`;
    parts.push(lim("u", l.processes, "processes"), lim("v", l.memoryMiB * 1024, "memory"), lim("t", l.cpuSeconds, "CPU time"), lim("f", l.fileMiB * 1024, "file size"));
  }
  if (!omit.has("landlock")) {
    parts.push(`[ ! -x /usr/bin/perl ] || exec /usr/bin/perl -e ${shellQuote(landlockPerl(jailTmp(opts), opts.writable ?? []))} -- "$1"`);
    parts.push(`echo ${shellQuote(`${NO_LANDLOCK} (no /usr/bin/perl to apply it)`)} >&2`);
  }
  parts.push('exec /bin/bash -c "$1"');
  return parts.join("; ");
}

/** The seccomp parts `omit` leaves out, or "all" when the whole program is. */
function seccompOmit(omit: ReadonlySet<ConfineStep>): SeccompPart[] | "all" {
  if (omit.has("seccomp")) return "all";
  return SECCOMP_PARTS.filter((p) => omit.has(p));
}

/**
 * The bash text that runs `command` confined: bwrap, then the Perl stage (jailPerl), which loads
 * the seccomp program from hex in its arguments, so the result needs no file. Without Perl, the
 * program is fed to bwrap on fd 3 by process substitution (base64, decoded by coreutils). Claude's
 * shell defines `grep` as a function (its bundled ugrep) that `bash -c` loses; the rewrite
 * (confine-shell.ts) exports it.
 */
export function confineCommand(command: string, opts: ConfineOptions): string {
  const omit = new Set(opts.omit ?? []);
  const bwrap = opts.bwrap ?? "bwrap";
  const { mounts, finish } = bwrapArgParts(opts);
  const raw = opts.rawArgs ? ` ${opts.rawArgs}` : "";
  const args = `${mounts.map(shellQuote).join(" ")}${raw} ${finish.map(shellQuote).join(" ")}`;
  const parts = seccompOmit(omit);
  const perl = opts.perl ?? "/usr/bin/perl";
  const nr = SYSCALL_NR[opts.arch ?? process.arch];
  if (perl !== false && nr) {
    const hex = parts === "all" ? "" : Buffer.from(jailFilter(parts)).toString("hex");
    return `${shellQuote(bwrap)} ${args} -- ${shellQuote(perl)} -e ${shellQuote(jailPerl(opts, nr))} -- ${hex === "" ? "''" : hex} proctor-jail ${shellQuote(command)}`;
  }
  const seccomp = parts === "all" ? "" : ` --seccomp 3 3< <(printf %s ${Buffer.from(jailFilter(parts)).toString("base64")} | base64 -d)`;
  return `${shellQuote(bwrap)} ${args}${seccomp} -- /bin/bash -c ${shellQuote(jailPrelude(opts))} proctor-jail ${shellQuote(command)}`;
}

/** What to tell the user when bwrap is missing or refuses to start (exit before running anything). */
export const CONFINE_HOWTO =
  "install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap; Fedora: dnf install bubblewrap) and allow " +
  "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ " +
  "kernel.apparmor_restrict_unprivileged_userns=0); inside a container run with --privileged or a seccomp " +
  "profile that permits clone(CLONE_NEWUSER); or run proctor gate with --confine off (classifier only, weaker: no confinement)";
