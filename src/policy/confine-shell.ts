/**
 * The command text `proctor gate` hands back in `updatedInput`: the model's command, run confined.
 * Pure: builds text, never spawns. Linux runs it in bubblewrap (`confineCommand`); macOS in
 * `sandbox-exec` with a generated profile (untested in CI: no macOS runner).
 *
 * The outer part runs in Claude Code's own shell, before the sandbox starts: it only exports the
 * shell's functions (Claude Code defines `grep`, `rg`, `find` as functions over its bundled
 * ugrep/ripgrep/bfs, which a bare `bash -c` would lose), starts the sandbox, and — when the
 * sandbox could not start (bwrap exits before running anything) — says why and how to fix it.
 * The model's command itself is only ever a single-quoted argument.
 */
import { type ConfineLimits, confineCommand, limitsFromEnv, pathPrefixes, shellQuote } from "./confine.js";

/** How the command is confined: bubblewrap on Linux, sandbox-exec on macOS. */
export interface Confiner {
  readonly kind: "bwrap" | "sandbox-exec";
  /** The binary's absolute path. */
  readonly path: string;
  /** bwrap only: the Perl that sets up the inside (default /usr/bin/perl); false where there is none (no Landlock then, said on stderr). */
  readonly perl?: string | false;
  /**
   * bwrap only: the `cgroup.procs` of the pids group the command joins before the jail starts —
   * as root, where RLIMIT_NPROC is not enforced, the only bound on its process count (pids-cgroup.ts).
   */
  readonly pidsProcs?: string;
}

/** The first words of what the rewrite prints when the sandbox cannot start: the reader of a Trace looks for them. */
export const CANNOT_CONFINE = "proctor gate: cannot confine this command";

/**
 * Bash (or zsh) text: export the current shell's functions so the confined bash has them too
 * (bash only: zsh functions cannot be exported to bash — there the confined command sees the
 * system's grep, rg and find). Claude Code's `grep` function reads `CLAUDE_CODE_EXECPATH`, a
 * shell variable, so it is exported with them.
 */
const EXPORT_FUNCTIONS = [
  'if [ -n "$BASH_VERSION" ]; then __proctor_fns=$(compgen -A function)',
  '[ -z "$__proctor_fns" ] || export -f $__proctor_fns',
  '[ -z "$CLAUDE_CODE_EXECPATH" ] || export CLAUDE_CODE_EXECPATH; fi',
].join("; ");

/** Why bwrap would not start, for the message printed in its place. */
function explainBwrap(bwrap: string): string {
  const why =
    `${CANNOT_CONFINE}: bubblewrap could not start a sandbox here (nested inside another sandbox — ` +
    "Claude Code's own sandbox.enabled, a container without user namespaces — or namespaces refused); " +
    "nothing ran. Fix: turn the other sandbox off, or allow namespaces (apt-get install -y bubblewrap; " +
    "sysctl kernel.unprivileged_userns_clone=1), or run the gate with --confine off (classifier only, weaker)";
  return `${shellQuote(bwrap)} --ro-bind / / /bin/true 2>/dev/null || printf '%s\\n' ${shellQuote(why)} >&2`;
}

/**
 * Shown read-only at run time, by the running shell: the claude executable its `grep`, `rg` and
 * `find` functions run (wherever it is installed: a clone under /tmp included).
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not a template
const EXECPATH_ARGS = '${CLAUDE_CODE_EXECPATH:+--ro-bind-try "$CLAUDE_CODE_EXECPATH" "$CLAUDE_CODE_EXECPATH"}';

/** What the rewrite needs from the gate's environment: PATH's install prefixes are shown, PROCTOR_JAIL_* set the limits. */
export interface RewriteEnv {
  readonly PATH?: string | undefined;
  readonly HOME?: string | undefined;
  readonly [name: string]: string | undefined;
}

/** The Linux rewrite: functions exported, the command in bubblewrap, a failed start explained. */
export function bwrapRewrite(command: string, cwd: string, bwrap: string, env: RewriteEnv = {}, confiner: Pick<Confiner, "perl" | "pidsProcs"> = {}): string {
  const limits: ConfineLimits = limitsFromEnv(env);
  const run = confineCommand(command, { cwd, bwrap, visible: pathPrefixes(env.PATH, env.HOME), limits, rawArgs: EXECPATH_ARGS, ...(confiner.perl === undefined ? {} : { perl: confiner.perl }) });
  // This shell runs only this command: it joins the group, and the jail it starts is counted there.
  const join = confiner.pidsProcs ? `{ echo $$ > ${shellQuote(confiner.pidsProcs)}; } 2>/dev/null || { echo ${shellQuote(`${CANNOT_CONFINE}: cannot join the process-count cgroup ${confiner.pidsProcs}; nothing ran`)} >&2; exit 126; }; ` : "";
  return `${EXPORT_FUNCTIONS}; ${join}${run} || { __proctor_rc=$?; ${explainBwrap(bwrap)}; (exit $__proctor_rc); }`;
}

/**
 * The sandbox-exec profile: everything allowed but writes (outside the throw-away TMPDIR, passed
 * as the `TMP` parameter, and the tty and null devices), network of every kind (TCP, UDP, unix
 * sockets), and the two programs that ask other processes to act (`open`, `osascript`). Mach IPC
 * to system services stays open: weaker than the Linux recipe, and said so in docs/safety.md.
 */
export function sandboxExecProfile(): string {
  return [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    '(allow file-write* (subpath (param "TMP")) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
    "(deny network*)",
    '(deny process-exec (literal "/usr/bin/open") (literal "/usr/bin/osascript"))',
  ].join("\n");
}

/** The macOS rewrite: a throw-away TMPDIR, the command under sandbox-exec, the TMPDIR removed after. */
export function sandboxExecRewrite(command: string, sandboxExec: string): string {
  const run = `TMPDIR="$__proctor_tmp" ${shellQuote(sandboxExec)} -D TMP="$__proctor_tmp" -p ${shellQuote(sandboxExecProfile())} /bin/bash -c ${shellQuote(command)}`;
  return `${EXPORT_FUNCTIONS}; __proctor_tmp=$(mktemp -d) && { ${run}; __proctor_rc=$?; rm -rf "$__proctor_tmp"; (exit $__proctor_rc); }`;
}

/** The rewrite for the confiner found by the preflight. */
export function confinedShellCommand(command: string, cwd: string, confiner: Confiner, env: RewriteEnv = {}): string {
  return confiner.kind === "bwrap" ? bwrapRewrite(command, cwd, confiner.path, env, confiner) : sandboxExecRewrite(command, confiner.path);
}
