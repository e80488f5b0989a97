/**
 * Can `proctor gate` confine a command here? Answered once per process from a few `stat`s and
 * small file reads (no process is spawned: the gate runs before every tool call). What it cannot
 * see — a container's seccomp profile refusing namespaces — the rewrite itself catches: bwrap
 * exits before running anything and the rewrite prints why (see confine-shell.ts).
 */
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CONFINE_HOWTO, limitsFromEnv } from "./confine.js";
import { gatePidsGroup } from "./pids-cgroup.js";
import type { Confiner } from "./confine-shell.js";

export type Preflight = { readonly ok: true; readonly confiner: Confiner } | { readonly ok: false; readonly why: string; readonly howto: string };

export interface PreflightContext {
  readonly platform: NodeJS.Platform;
  readonly env: NodeJS.ProcessEnv;
  /** The hook event's cwd: where project settings (and Claude Code's `sandbox.enabled`) live. */
  readonly cwd: string;
  /** The running user's id (root needs no user namespace). */
  readonly uid: number | undefined;
  /** Command lines of the gate's ancestors, nearest first: Claude Code's `--settings` is read from them. */
  readonly ancestors?: () => readonly string[][];
}

/** An executable regular file named `name` on PATH, or undefined. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(":")) {
    if (dir === "") continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** `sandbox.enabled` of a settings JSON text (a file's, or an inline `--settings` value). */
function sandboxEnabled(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    const json = JSON.parse(text) as { sandbox?: { enabled?: unknown } };
    return json?.sandbox?.enabled === true;
  } catch {
    return false;
  }
}

/** The `--settings` values on the ancestors' command lines (a path or inline JSON). */
function settingsArgs(ancestors: readonly string[][]): string[] {
  const out: string[] = [];
  for (const argv of ancestors) {
    argv.forEach((a, i) => {
      if (a === "--settings" && argv[i + 1] !== undefined) out.push(argv[i + 1] as string);
      else if (a.startsWith("--settings=")) out.push(a.slice("--settings=".length));
    });
  }
  return out;
}

/** Up to four ancestors' argv from /proc (Claude Code runs a hook through a shell). */
export function procAncestors(): string[][] {
  const out: string[][] = [];
  let pid = process.ppid;
  for (let i = 0; i < 4 && pid > 1; i++) {
    const cmdline = readText(`/proc/${pid}/cmdline`);
    if (cmdline === undefined) break;
    out.push(cmdline.split("\0").filter((a) => a !== ""));
    const stat = readText(`/proc/${pid}/stat`);
    const ppid = stat === undefined ? Number.NaN : Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!Number.isInteger(ppid)) break;
    pid = ppid;
  }
  return out;
}

/** Where Claude Code's own sandbox is switched on for this session, or undefined. */
export function claudeSandboxSource(ctx: PreflightContext): string | undefined {
  const home = ctx.env.CLAUDE_CONFIG_DIR ?? (ctx.env.HOME ? join(ctx.env.HOME, ".claude") : undefined);
  const files = [join(ctx.cwd, ".claude", "settings.json"), join(ctx.cwd, ".claude", "settings.local.json"), ...(home ? [join(home, "settings.json")] : []), "/etc/claude-code/managed-settings.json"];
  for (const file of files) if (sandboxEnabled(readText(file))) return file;
  for (const arg of settingsArgs(ctx.ancestors?.() ?? [])) {
    const text = arg.trimStart().startsWith("{") ? arg : readText(arg.startsWith("/") ? arg : join(ctx.cwd, arg));
    if (sandboxEnabled(text)) return `--settings ${arg.length > 80 ? `${arg.slice(0, 77)}...` : arg}`;
  }
  return undefined;
}

/** Why unprivileged user namespaces are off, for a non-root user without a setuid bwrap; undefined when they are on. */
function userNamespacesOff(bwrap: string, uid: number | undefined): string | undefined {
  if (uid === 0) return undefined;
  try {
    if ((statSync(bwrap).mode & 0o4000) !== 0) return undefined; // setuid bwrap needs no user namespace
  } catch {
    return undefined;
  }
  if (readText("/proc/sys/user/max_user_namespaces")?.trim() === "0") return "user namespaces are off (user.max_user_namespaces = 0)";
  if (readText("/proc/sys/kernel/unprivileged_userns_clone")?.trim() === "0") return "unprivileged user namespaces are off (kernel.unprivileged_userns_clone = 0)";
  if (readText("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")?.trim() === "1" && readText("/etc/apparmor.d/bwrap-userns-restrict") === undefined) {
    return "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1) and no AppArmor profile lets bwrap use them";
  }
  return undefined;
}

const SANDBOX_HOWTO =
  "turn Claude Code's sandbox off where proctor gate confines (sandbox.enabled: false), or keep it and run the gate with --confine off (classifier only: Claude Code's sandbox then confines, with the work dir writable)";

/** The preflight's answer for one context (not cached: tests call it with made-up contexts). */
export function confinePreflightFor(ctx: PreflightContext): Preflight {
  if (ctx.platform === "darwin") {
    const sandboxExec = findOnPath("sandbox-exec", "/usr/bin");
    if (!sandboxExec) return { ok: false, why: "macOS without /usr/bin/sandbox-exec", howto: "confinement on macOS uses /usr/bin/sandbox-exec; or run the gate with --confine off (classifier only, weaker)" };
    return { ok: true, confiner: { kind: "sandbox-exec", path: sandboxExec } };
  }
  if (ctx.platform !== "linux") return { ok: false, why: `no confinement for ${ctx.platform} (proctor confines on Linux with bubblewrap and on macOS with sandbox-exec)`, howto: "run the gate with --confine off (classifier only, weaker)" };
  const bwrap = findOnPath("bwrap", ctx.env.PATH);
  if (!bwrap) return { ok: false, why: "bubblewrap (bwrap) is not on PATH", howto: CONFINE_HOWTO };
  const off = userNamespacesOff(bwrap, ctx.uid);
  if (off) return { ok: false, why: off, howto: CONFINE_HOWTO };
  const sandbox = claudeSandboxSource(ctx);
  if (sandbox) return { ok: false, why: `Claude Code's own sandbox is on (sandbox.enabled in ${sandbox}), and bwrap cannot start inside it`, howto: SANDBOX_HOWTO };
  return { ok: true, confiner: { kind: "bwrap", path: bwrap, perl: findOnPath("perl", "/usr/bin") ?? false } };
}

let cached: { key: string; answer: Preflight } | undefined;

/** The preflight for this process, once per cwd and PATH. */
export function confinePreflight(cwd: string): Preflight {
  const key = `${cwd}\0${process.env.PATH ?? ""}`;
  if (cached?.key !== key) {
    let answer = confinePreflightFor({ platform: process.platform, env: process.env, cwd, uid: process.getuid?.(), ancestors: procAncestors });
    // As root RLIMIT_NPROC bounds nothing: the confined commands share a pids cgroup where one can be made.
    if (answer.ok && answer.confiner.kind === "bwrap" && process.getuid?.() === 0) {
      // A bad PROCTOR_JAIL_PROCESSES is the rewrite's error to report (the call is then denied, naming it).
      let max: number | undefined;
      try {
        max = limitsFromEnv(process.env).processes;
      } catch {
        max = undefined;
      }
      const pidsProcs = max === undefined ? undefined : gatePidsGroup(max);
      if (pidsProcs) answer = { ok: true, confiner: { ...answer.confiner, pidsProcs } };
    }
    cached = { key, answer };
  }
  return cached.answer;
}
