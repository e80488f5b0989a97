/**
 * A hermetic trial for Claude Code: plugins and MCP servers run from per-trial copies, Bash runs in
 * claude's sandbox (unless the spec says why not), and every root the trial can write — the work
 * dir, its HOME and TMPDIR, the copies — is named so the run's writes there can be compared.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RunProblem, Trace } from "../../src/trace/types.js";
import type { OutsidePlan, OutsideRoot } from "../workdir/outside.js";
import type { RunDirs } from "../workdir/prepare.js";
import { copyMcpServers, copyPlugin } from "../workdir/trial-copies.js";
import { sandboxSettings, withSandbox, type SandboxState } from "./sandbox.js";
import type { HarnessSpec } from "./spec.js";

/** The run's dirs with the copies in place, the spec as the CLI arguments should read it, and what to compare. */
export interface HermeticTrial {
  readonly dirs: RunDirs;
  /** The spec with `plugins` and `--plugin-dir` arguments pointing at the copies. */
  readonly spec: HarnessSpec;
  /** Original plugin dir → its copy. */
  readonly pluginCopies: ReadonlyMap<string, string>;
  readonly outside: OutsidePlan;
}

/**
 * Copy the spec's plugins and MCP servers into the trial, add the sandbox settings, and name the
 * roots. `jail`: the whole trial runs in proctor's jail (harness/claude/jail.ts), which confines
 * Bash, hooks and MCP servers alike; claude's own sandbox stays off (it cannot nest in the jail).
 */
export function hermeticTrial(spec: HarnessSpec, dirs: RunDirs, cwd: string, sandbox: SandboxState, jail = false): HermeticTrial {
  const pluginCopies = new Map<string, string>();
  const taken = new Set<string>();
  const roots: OutsideRoot[] = [
    { name: "$HOME", path: dirs.home },
    { name: "$TMPDIR", path: dirs.tmpDir },
  ];
  const copy = (given: string): string => {
    const from = path.resolve(cwd, given);
    let to = pluginCopies.get(from);
    if (to === undefined) {
      to = copyPlugin(from, path.join(dirs.root, "plugins"), taken);
      pluginCopies.set(from, to);
      roots.push({ name: `plugin:${path.basename(to)}`, path: to, copiedFrom: from });
    }
    return to;
  };
  const plugins = (spec.plugins ?? []).map(copy);
  const uncovered: string[] = [];
  const args = [...(spec.args ?? [])];
  args.forEach((arg, i) => {
    if (arg === "--plugin-dir" && args[i + 1] !== undefined) args[i + 1] = copy(args[i + 1] as string);
    else if (arg.startsWith("--plugin-dir=")) args[i] = `--plugin-dir=${copy(arg.slice("--plugin-dir=".length))}`;
    else if (arg === "--mcp-config" || arg.startsWith("--mcp-config=")) uncovered.push("an MCP config given in spec.args runs in place (give it as spec.mcpConfig to have its servers copied per trial)");
  });

  let settingsFile = dirs.settingsFile;
  if (sandbox.on && !jail) {
    settingsFile = path.join(dirs.root, "settings.json");
    writeFileSync(settingsFile, JSON.stringify(withSandbox(spec.settings, sandboxSettings(sandbox, dirs.tmpDir, spec.sandbox, cwd)), null, 2));
  }
  if (dirs.mcpConfigFile) {
    const copies = copyMcpServers(JSON.parse(readFileSync(dirs.mcpConfigFile, "utf8")), dirs.root, dirs.workDir);
    writeFileSync(dirs.mcpConfigFile, JSON.stringify(copies.config, null, 2));
    roots.push(...copies.roots);
    uncovered.push(...copies.uncovered);
  }
  return {
    dirs: { ...dirs, settingsFile },
    spec: { ...spec, ...(spec.plugins ? { plugins } : {}), ...(spec.args ? { args } : {}) },
    pluginCopies,
    outside: { roots, uncovered, sandbox: sandbox.on ? { on: true } : { on: false, reason: sandbox.reason } },
  };
}

/**
 * The Trace with each plugin copy's path in `source.plugins` put back to the user's own dir: checks
 * and messages speak of the plugin the spec named (`outsideWrites.roots` says where it ran from).
 */
export function withOriginalPlugins(trace: Trace, copies: ReadonlyMap<string, string>): Trace {
  const plugins = trace.source.plugins;
  if (!plugins || copies.size === 0) return trace;
  const back = new Map([...copies].map(([from, to]) => [to, from]));
  return { ...trace, source: { ...trace.source, plugins: plugins.map((p) => ({ ...p, path: back.get(p.path) ?? p.path })) } };
}

/** The run's errors with each plugin copy's path put back to the user's own dir, so messages name what they gave. */
export function originalPaths(problems: readonly RunProblem[], copies: ReadonlyMap<string, string>): RunProblem[] {
  return problems.map((p) => {
    let message = p.message;
    for (const [from, to] of copies) message = message.split(to).join(from);
    return { ...p, message };
  });
}

/** Read-only refusals as Bash reports them: the shell's, Python's, Node's. */
const SANDBOX_REFUSAL = /Read-only file system|\bEROFS\b|Operation not permitted|\bEPERM\b|Connection blocked by network allowlist/;

/**
 * In a sandboxed run, a failed Bash call whose output is a read-only or not-permitted refusal was
 * stopped by the sandbox: claude reports it as an ordinary failure, proctor as `denied` by `sandbox`.
 * `refused` says whether a result shows such a refusal (default: claude's sandbox's wording; the
 * jail passes its own reading, jail.ts).
 */
export function attributeSandboxDenials(trace: Trace, refused: (result: string) => boolean = (r) => SANDBOX_REFUSAL.test(r)): Trace {
  let changed = false;
  const toolCalls = trace.toolCalls.map((call) => {
    if (call.name !== "Bash" || call.status !== "failure" || !refused(call.result ?? "")) return call;
    changed = true;
    return { ...call, status: "denied" as const, deniedBy: "sandbox" as const };
  });
  return changed ? { ...trace, toolCalls } : trace;
}
