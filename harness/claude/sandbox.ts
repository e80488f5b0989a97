/**
 * Claude Code's own sandbox around Bash, as proctor turns it on for a run: the work dir and the
 * trial's TMPDIR writable, everything else read-only, the network closed (or a domain allowlist),
 * no unsandboxed fallback, and a refusal to start when the sandbox cannot run. Permission rules
 * are left as they are (`autoAllowBashIfSandboxed: false`): the sandbox confines what was
 * allowed, it does not allow more.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { InvalidInputError, RunError } from "../../src/errors/proctor-error.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import type { SandboxSpec } from "../../src/eval/spec-types.js";
import { isExecutable } from "../run/binary.js";

/** Whether a run is sandboxed, and why not when it is not. */
export type SandboxState = { readonly on: true; readonly allowedDomains: readonly string[]; readonly jail: boolean } | { readonly on: false; readonly reason: string };

/** True for a valid `sandbox` spec value: `{ off: "reason" }` or `{ allowedDomains?, allowWrite? }`. */
export function isSandboxSpec(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  if ("off" in v) return keys.length === 1 && typeof v.off === "string" && v.off.trim() !== "";
  const list = (x: unknown) => x === undefined || (Array.isArray(x) && x.every((s) => typeof s === "string" && s !== ""));
  return keys.every((k) => k === "allowedDomains" || k === "allowWrite" || k === "jail") && list(v.allowedDomains) && list(v.allowWrite) && (v.jail === undefined || typeof v.jail === "boolean");
}

export const SANDBOX_SPEC_PROBLEM = 'must be { off: "why" } to turn the sandbox off, or { allowedDomains?: [...], allowWrite?: [...], jail?: true } to turn it on';

/**
 * The run's sandbox state: the mock, replay and judge tiers are sandboxed unless the spec says
 * `{ off: reason }`; the real tier only when the spec asks (`defaultOn: false`).
 */
export function sandboxState(spec: SandboxSpec | undefined, defaultOn: boolean): SandboxState {
  if (spec && "off" in spec) return { on: false, reason: spec.off };
  if (!spec && !defaultOn) return { on: false, reason: "the real tier runs unsandboxed unless the spec sets sandbox: { allowedDomains }" };
  return { on: true, allowedDomains: spec?.allowedDomains ?? [], jail: defaultOn || (spec !== undefined && "jail" in spec && spec.jail === true) };
}

/** The spec's `allowWrite` paths, absolute (relative ones against the run's cwd). */
export function allowWritePaths(spec: SandboxSpec | undefined, cwd: string): string[] {
  return spec && "allowWrite" in spec ? (spec.allowWrite ?? []).map((p) => path.resolve(cwd, p)) : [];
}

/**
 * The settings block that turns the sandbox on. `filesystem.allowWrite` names the trial's TMPDIR
 * (claude adds the work dir itself); nothing else is writable.
 */
export function sandboxSettings(state: Extract<SandboxState, { on: true }>, tmpDir: string, spec: SandboxSpec | undefined, cwd: string): Record<string, unknown> {
  const extra = allowWritePaths(spec, cwd);
  return {
    enabled: true,
    autoAllowBashIfSandboxed: false,
    allowUnsandboxedCommands: false,
    failIfUnavailable: true,
    filesystem: { allowWrite: [tmpDir, ...extra] },
    network: { allowedDomains: [...state.allowedDomains] },
  };
}

/**
 * The spec's settings with the sandbox block added. A `sandbox` the user's own settings give is
 * merged over proctor's, key by key, so a user can widen or narrow it on purpose.
 */
export function withSandbox(settings: Readonly<Record<string, unknown>> | undefined, block: Record<string, unknown>): Record<string, unknown> {
  const own = settings?.sandbox;
  return { ...settings, sandbox: isPlainObject(own) ? { ...block, ...own } : block };
}

/** Which sandbox a trial runs in: claude's own (around Bash), or proctor's jail (around the whole trial: harness/claude/jail.ts). */
export type SandboxKind = "claude" | "jail";

/** What the sandbox needs on this platform and is missing, with how to install it; empty when all is there. */
export function sandboxMissing(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, kind: SandboxKind = "claude"): string[] {
  if (kind === "jail" && platform !== "linux") return [`proctor's jail runs on Linux only, not on ${platform}`];
  if (platform === "darwin") return onPath("sandbox-exec", env) ? [] : ["sandbox-exec (part of macOS; is /usr/bin on PATH?)"];
  if (platform !== "linux") return [`claude's sandbox runs on Linux and macOS only, not on ${platform}`];
  const missing: string[] = [];
  if (!onPath("bwrap", env)) missing.push("bwrap (bubblewrap): apt-get install bubblewrap · dnf install bubblewrap · apk add bubblewrap");
  if (!onPath("socat", env)) missing.push("socat: apt-get install socat · dnf install socat · apk add socat");
  // The jail's second stage (seccomp, Landlock scopes) is applied by /usr/bin/perl (Debian's perl-base is essential).
  if (kind === "jail" && !isExecutable("/usr/bin/perl")) missing.push("perl at /usr/bin/perl: apt-get install perl-base · dnf install perl-interpreter · apk add perl");
  if (missing.length === 0 && !namespacesWork(env)) {
    missing.push("user namespaces: bwrap is installed but cannot create a sandbox here (a container without --privileged or a seccomp profile allowing unshare, or kernel.unprivileged_userns_clone=0; on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0)");
  }
  return missing;
}

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(path.delimiter).some((dir) => dir !== "" && isExecutable(path.join(dir, name)));
}

/** Whether bwrap can start a sandbox at all here; asked once per process. */
let namespaces: boolean | undefined;
function namespacesWork(env: NodeJS.ProcessEnv): boolean {
  namespaces ??= spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-net", "--", "true"], { env, stdio: "ignore", timeout: 10_000 }).status === 0;
  return namespaces;
}

/**
 * Refuse to start a sandboxed run the sandbox cannot confine, saying what is missing, how to
 * install it, and how to turn the sandbox off for this spec instead.
 */
export function sandboxPreflight(runner: string, env: NodeJS.ProcessEnv = process.env, kind: SandboxKind = "claude"): void {
  const missing = sandboxMissing(env, process.platform, kind);
  if (missing.length === 0) return;
  throw new RunError("SANDBOX_UNAVAILABLE", `${runner}: ${kind === "jail" ? "proctor's jail" : "claude's sandbox"} cannot run here, so the trial would not be hermetic: ${missing.length === 1 ? missing[0] : `${missing.length} things are missing`}`, {
    detail: [
      ...missing.map((m) => `  missing: ${m}`),
      '  or turn it off for this spec, with the reason: sandbox: { off: "why" } (CLI: --no-sandbox "why")',
    ].join("\n"),
  });
}

/**
 * Refuse a settings sandbox block that contradicts the spec's own `sandbox` (off in one, on in the
 * other). `jail`: the run's sandbox is proctor's jail, where claude's own cannot start (its nested
 * namespaces are refused), so `enabled: true` is refused too.
 */
export function refuseSandboxConflict(runner: string, settings: Readonly<Record<string, unknown>> | undefined, state: SandboxState, jail = false): void {
  const own = settings?.sandbox;
  if (!isPlainObject(own) || own.enabled === undefined) return;
  if (jail && state.on && own.enabled === true) {
    throw new InvalidInputError("INVALID_INPUT", `${runner}: spec.settings.sandbox.enabled is true, but the trial runs in proctor's jail, where claude's own sandbox cannot start (nested namespaces are refused)`, {
      detail: '  drop settings.sandbox: the jail confines Bash, hooks and MCP servers; or run outside the jail with claude\'s sandbox: sandbox: { off: "why" } and no settings.sandbox',
    });
  }
  if (own.enabled === state.on) return;
  throw new InvalidInputError("INVALID_INPUT", `${runner}: spec.settings.sandbox.enabled is ${String(own.enabled)} but the run's sandbox is ${state.on ? "on" : "off"}`, {
    detail: state.on ? '  to run unsandboxed say why: sandbox: { off: "why" }' : "  drop sandbox: { off } from the spec to run sandboxed",
  });
}
