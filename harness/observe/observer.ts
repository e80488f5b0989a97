/**
 * The observer: a LaunchWrapper that runs the agent's command line under strace and, once the run
 * ended, turns strace's log into each call's observed effects (`ToolCall.observed`) and the run's
 * `trace.observation`. See docs/observation.md for what is observed and why this mechanism.
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ObservedEffect, Trace } from "../../src/trace/types.js";
import { trackDir, untrackDir } from "../process/live.js";
import type { LaunchWrapper } from "../run/lifecycle.js";
import { attributeEffects, type ObserveContext } from "./attribute.js";
import { readStraceLog } from "./read-log.js";
import { straceArgs } from "./strace-args.js";

/** Whether strace can observe runs on this machine, and why not when it cannot. */
export type ObserverSupport = { readonly usable: true; readonly strace: string } | { readonly usable: false; readonly reason: string };

let support: ObserverSupport | undefined;

/** Probe once per process: strace present, and allowed to trace (ptrace refused in some containers). */
export function observerSupport(): ObserverSupport {
  support ??= probeStrace("strace");
  return support;
}

/** Can this strace trace a child here? Uncached: `observerSupport` is the once-per-process answer. */
export function probeStrace(strace: string): ObserverSupport {
  // The run's own options: a strace too old for one of them (--pidns-translation needs 5.9) fails here, not mid-run.
  const probe = spawnSync(strace, [...straceArgs("/dev/null", true), "true"], { encoding: "utf8", timeout: 10_000 });
  if (probe.error) {
    return { usable: false, reason: (probe.error as NodeJS.ErrnoException).code === "ENOENT" ? "strace is not installed (apt-get install -y strace)" : `strace could not start (${probe.error.message})` };
  } else if (probe.status !== 0) {
    const why = probe.stderr.trim().split("\n").at(-1) ?? "";
    return { usable: false, reason: `strace cannot trace here (${why || `exit ${probe.status}`}): ptrace is refused or strace is older than 5.9 — allow ptrace (CAP_SYS_PTRACE, kernel.yama.ptrace_scope ≤ 1), update strace, or pass observe: false` };
  }
  return { usable: true, strace };
}

let warned = false;

/**
 * Say once per process, before the first trial, that runs are not observed and why: the effect
 * checks then decide from the command text, and their verdicts say so.
 */
export function warnUnobserved(reason: string): void {
  if (warned) return;
  warned = true;
  process.emitWarning(`proctor: live trials are not observed — ${reason}; effect checks fall back to reading the command text`, { code: "PROCTOR_UNOBSERVED" });
}

/** Whether a run with this `observe` spec value is observed: on where strace can trace (saying once when it cannot), off when asked. */
export function observing(observe: boolean | undefined): boolean {
  if (observe === false) return false;
  const s = observerSupport();
  if (!s.usable) warnUnobserved(s.reason);
  return s.usable;
}

/** Options of one observer. */
export interface ObserverOptions {
  /** What the trial configured (hooks, MCP servers), read when the run ends. */
  readonly context: () => ObserveContext;
  /** `--seccomp-bpf`: stop only on the traced system calls (the default; see docs/observation.md). */
  readonly seccomp?: boolean;
}

/** A fresh observer for one run: its log lives in a private temp dir, removed by dispose(). */
export function createObserver(options: ObserverOptions): LaunchWrapper {
  // Beside the run's root, not in it: a command the sandbox lets write the trial's TMPDIR cannot reach the log.
  // Tracked like a run's root, so a driver killed mid-run leaves it no more than it leaves the run's.
  const dir = mkdtempSync(path.join(tmpdir(), "proctor-observe-"));
  trackDir(dir);
  const log = path.join(dir, "strace.log");
  return {
    name: "observer",
    wrap(binary, args) {
      return { binary: "strace", args: [...straceArgs(log, options.seccomp ?? true), binary, ...args] };
    },
    finish(trace: Trace): Trace {
      if (!existsSync(log)) {
        return { ...trace, observation: { mechanism: "strace", others: [], unattributed: [], gaps: ["strace wrote no log: nothing the run did was observed"] } };
      }
      const parsed = readStraceLog(log);
      parsed.effects.splice(0, parsed.effects.length, ...parsed.effects.map(withFileType));
      const gaps = parsed.firstPid === undefined ? ["the observation log is empty: strace did not trace the run"] : [];
      return attributeEffects(trace, parsed, options.context(), gaps);
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      untrackDir(dir);
    },
  };
}

/** A written or created path that is a FIFO, socket or device says so (looked up after the run, when it still exists). */
function withFileType(e: ObservedEffect): ObservedEffect {
  if (e.fileType || e.path === undefined || (e.kind !== "write" && e.kind !== "create" && e.kind !== "refused")) return e;
  try {
    const st = lstatSync(e.path);
    const fileType = st.isFIFO() ? "fifo" : st.isSocket() ? "socket" : st.isCharacterDevice() || st.isBlockDevice() ? "device" : undefined;
    return fileType ? { ...e, fileType } : e;
  } catch {
    return e;
  }
}

/** The hooks and MCP servers a claude trial configured: its settings file, MCP config file and plugin dirs. */
export function claudeObserveContext(binary: string, cwd: string, files: { readonly settingsFile?: string | undefined; readonly mcpConfigFile?: string | undefined; readonly plugins: readonly string[] }): ObserveContext {
  const hooks: { name: string; command: string }[] = [];
  const mcpServers: { name: string; command: string; args: string[] }[] = [];
  const addHooks = (block: unknown) => {
    if (!block || typeof block !== "object") return;
    for (const [event, groups] of Object.entries(block as Record<string, unknown>)) {
      if (!Array.isArray(groups)) continue;
      for (const g of groups as { matcher?: unknown; hooks?: unknown }[]) {
        const name = typeof g?.matcher === "string" && g.matcher !== "" ? `${event}:${g.matcher}` : event;
        for (const h of Array.isArray(g?.hooks) ? (g.hooks as { type?: unknown; command?: unknown }[]) : []) {
          if (h?.type === "command" && typeof h.command === "string") hooks.push({ name, command: h.command });
        }
      }
    }
  };
  const addServers = (block: unknown, root?: string) => {
    if (!block || typeof block !== "object") return;
    const expand = (v: string) => (root === undefined ? v : v.replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, root));
    for (const [name, s] of Object.entries(block as Record<string, { command?: unknown; args?: unknown }>)) {
      if (typeof s?.command !== "string") continue;
      mcpServers.push({ name, command: expand(s.command), args: Array.isArray(s.args) ? s.args.filter((a): a is string => typeof a === "string").map(expand) : [] });
    }
  };
  const json = (file: string | undefined): Record<string, unknown> | undefined => {
    if (file === undefined || !existsSync(file) || !statSync(file).isFile()) return undefined;
    try {
      return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  addHooks(json(files.settingsFile)?.hooks);
  addServers(json(files.mcpConfigFile)?.mcpServers);
  for (const dir of files.plugins) {
    addHooks(json(path.join(dir, "hooks", "hooks.json"))?.hooks);
    const mcp = json(path.join(dir, ".mcp.json"));
    addServers(mcp?.mcpServers ?? mcp, dir);
  }
  return { binary, cwd, hooks, mcpServers };
}
