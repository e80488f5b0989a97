/**
 * Tie every observed effect to its owner: the Bash call whose shell the process descends from, a
 * hook command, an MCP server, or the agent itself. Owners are given only to processes the agent
 * started itself, so a command cannot pass its effects to another owner by running a hook's or
 * another call's command line: whatever a call's process starts stays that call's.
 */
import path from "node:path";
import type { ObservedEffect, ObservedOwner, Observation, ToolCall, Trace } from "../../src/trace/types.js";
import type { ObservedProcess, StraceLog } from "./read-log.js";

/** What the trial configured, so the processes claude started for it can be recognised. */
export interface ObserveContext {
  /** The agent's binary as spawned: its process is the agent's own. */
  readonly binary: string;
  /** The trial's work dir: Write/Edit paths are relative to it. */
  readonly cwd: string;
  /** Hook commands from the trial's settings and plugins, each with the event (and matcher) it is configured for. */
  readonly hooks: readonly { readonly name: string; readonly command: string }[];
  /** MCP servers from the trial's config and plugins: how claude starts each. */
  readonly mcpServers: readonly { readonly name: string; readonly command: string; readonly args: readonly string[] }[];
}

/** Effects kept per owner (after the log's own caps): a call that floods is cut here, and the cut is a gap. */
export const MAX_EFFECTS_PER_OWNER = 2000;

const EDIT_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** `'…'` the way claude quotes a command into `eval '…'`: every `'` closed, escaped in double quotes, reopened. */
export function quoteForEval(command: string): string {
  return `'${command.replace(/'/g, `'"'"'`)}'`;
}

/** Does an argv element contain `needle`, or, when strace cut the element, begin it as far as it goes? */
function mentions(element: string, needle: string, cut: boolean): boolean {
  if (element.includes(needle)) return true;
  if (!cut) return false;
  const head = needle.slice(0, 64);
  const at = element.lastIndexOf(head.slice(0, Math.min(head.length, 16)));
  return at >= 0 && element.length - at >= 16 && needle.startsWith(element.slice(at));
}

/** A hook command as a pattern: the plugin-root and project-dir variables claude expands match anything. */
function hookPattern(command: string): RegExp {
  const parts = command.split(/\$\{?(?:CLAUDE_PLUGIN_ROOT|CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_DATA)\}?/);
  return new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*?")}$`, "s");
}

type OwnerKey = string;
const keyOf = (o: ObservedOwner): OwnerKey => (o.kind === "call" ? `call:${o.callId}` : o.kind === "hook" ? `hook:${o.name}\0${o.command}` : o.kind === "mcp" ? `mcp:${o.server}` : "agent");

/** The Trace with each call's observed effects and the run's observation. */
export function attributeEffects(trace: Trace, log: StraceLog, context: ObserveContext, extraGaps: readonly string[] = []): Trace {
  const { processes } = log;
  const gaps = [...log.gaps, ...extraGaps];
  const agentPid = findAgent(processes, context.binary, log.firstPid);
  const cores = findCallShells(trace.toolCalls, processes, gaps);
  const hooks = context.hooks.map((h) => ({ ...h, re: hookPattern(h.command) }));

  const memo = new Map<number, ObservedOwner | null>();
  const ownerOf = (pid: number): ObservedOwner | null => {
    const chain: number[] = [];
    let p: number | undefined = pid;
    let found: ObservedOwner | null | undefined;
    // Walk up to the first pid already decided (or the top), then decide downwards: no recursion depth limit.
    while (p !== undefined) {
      const known = memo.get(p);
      if (known !== undefined) {
        found = known;
        break;
      }
      chain.push(p);
      if (p === agentPid) {
        found = undefined;
        break;
      }
      p = processes.get(p)?.parent;
    }
    let owner: ObservedOwner | null = found ?? null;
    for (let i = chain.length - 1; i >= 0; i--) {
      const q = chain[i] as number;
      if (q === agentPid) owner = { kind: "agent" };
      else if (owner?.kind === "agent") owner = claimed(processes.get(q), cores, hooks, context) ?? owner;
      // owner null: above the agent (a wrapper around it) or a process whose start was not seen.
      memo.set(q, owner);
    }
    return owner;
  };

  const buckets = new Map<OwnerKey, { owner: ObservedOwner; effects: ObservedEffect[]; over: number; pids: Set<number> }>();
  const unattributed: ObservedEffect[] = [];
  const editTargets = editCalls(trace.toolCalls, context.cwd);
  const add = (owner: ObservedOwner, e: ObservedEffect) => {
    const k = keyOf(owner);
    let b = buckets.get(k);
    if (!b) {
      b = { owner, effects: [], over: 0, pids: new Set() };
      buckets.set(k, b);
    }
    if (b.effects.length >= MAX_EFFECTS_PER_OWNER) b.over++;
    else b.effects.push(e);
  };
  const wrapperNoise = shellWrapperNoise(cores, processes);
  for (const e of log.effects) {
    let owner = ownerOf(e.pid);
    if (owner === null) {
      if (!isLaunchMachinery(e.pid, agentPid, log.firstPid, processes)) unattributed.push(e);
      continue;
    }
    if (owner.kind === "call" && (wrapperNoise(e) || isSandboxSetup(e, processes))) continue;
    if (owner.kind === "agent") {
      const call = editTargets(e);
      if (call) owner = { kind: "call", callId: call };
    }
    add(owner, e);
  }
  // A signal to a process of the same owner is the owner's own business (a shell ending its job); only signals outside it are effects.
  const pidsOf = new Map<OwnerKey, Set<number>>();
  for (const pid of processes.keys()) {
    const o = ownerOf(pid);
    if (!o) continue;
    const k = keyOf(o);
    const s = pidsOf.get(k) ?? new Set<number>();
    pidsOf.set(k, s);
    s.add(pid);
  }
  for (const [k, b] of buckets) {
    const own = pidsOf.get(k) ?? new Set<number>();
    b.effects = b.effects.filter((e) => e.kind !== "signal" || e.target === undefined || !own.has(e.target));
    if (b.over > 0) gaps.push(`${describeOwner(b.owner)}: ${b.over} effect(s) beyond the first ${MAX_EFFECTS_PER_OWNER} were not kept`);
  }

  const perCall = new Map<string, ObservedEffect[]>();
  const others: Observation["others"][number][] = [];
  for (const b of buckets.values()) {
    if (b.effects.length === 0) continue;
    if (b.owner.kind === "call") perCall.set(b.owner.callId, b.effects);
    else others.push({ owner: b.owner, effects: b.effects });
  }
  const toolCalls: ToolCall[] = trace.toolCalls.map((c) => {
    const observed = perCall.get(c.id);
    return observed ? { ...c, observed } : c;
  });
  const observation: Observation = { mechanism: "strace", others, unattributed, gaps };
  return { ...trace, toolCalls, observation };
}

function describeOwner(o: ObservedOwner): string {
  return o.kind === "call" ? `call ${o.callId}` : o.kind === "hook" ? `hook ${o.name} (${o.command})` : o.kind === "mcp" ? `MCP server ${o.server}` : "the agent";
}

/** The agent's own process: the first to execute its binary; else the first process of the log. */
function findAgent(processes: Map<number, ObservedProcess>, binary: string, firstPid: number | undefined): number | undefined {
  const names = new Set([binary, path.resolve(binary)]);
  let best: ObservedProcess | undefined;
  for (const p of processes.values()) {
    if (p.execs.some((x) => names.has(x.path) || names.has(x.argv[0] ?? "")) && (!best || p.firstLine < best.firstLine)) best = p;
  }
  return best?.pid ?? firstPid;
}

/**
 * A process of the layers proctor launched around the agent (the jail's bwrap and its set-up, the
 * forwarder to the mock, the stage that execs the agent): started from the log's first process, but
 * not from the agent. Everything the agent starts descends from it by clone, whatever it reparents
 * to later, so such a process cannot be the run's. A process whose start the log did not show stays
 * unattributed.
 */
function isLaunchMachinery(pid: number, agentPid: number | undefined, firstPid: number | undefined, processes: Map<number, ObservedProcess>): boolean {
  if (agentPid === undefined || firstPid === undefined || agentPid === firstPid) return false;
  const seen = new Set<number>();
  for (let p: number | undefined = pid; p !== undefined && !seen.has(p); p = processes.get(p)?.parent) {
    if (p === agentPid) return false;
    if (p === firstPid) return true;
    seen.add(p);
  }
  return false;
}

/**
 * For each Bash call, the shell that ran its command: the innermost process whose argv carries
 * `eval '<command>'` (both claude versions wrap a command that way, inside their sandbox's layers).
 * Two calls with the same command are told apart by start order, and a gap says so.
 */
function findCallShells(calls: readonly ToolCall[], processes: Map<number, ObservedProcess>, gaps: string[]): Map<number, string> {
  const byCommand = new Map<string, ToolCall[]>();
  for (const c of calls) {
    // A PreToolUse hook may have rewritten the command (the gate's confinement): the shell ran that one.
    const command = c.ran?.command ?? c.input.command;
    if (c.name !== "Bash" || typeof command !== "string" || command === "") continue;
    const list = byCommand.get(command) ?? [];
    list.push(c);
    byCommand.set(command, list);
  }
  const cores = new Map<number, string>();
  for (const [command, list] of byCommand) {
    // A command of plain words and no space goes in unquoted (`eval ls < /dev/null`): its needle ends at the space after it.
    const needles = [`eval ${quoteForEval(command)}`, ...(/^[A-Za-z0-9_./+-]+$/.test(command) ? [`eval ${command} `] : [])];
    const marked = new Set<number>();
    for (const p of processes.values()) {
      if (p.execs.some((x) => x.argv.some((a) => needles.some((needle) => mentions(a, needle, x.cut))))) marked.add(p.pid);
    }
    // Innermost: a marked process none of whose descendants is marked (the sandbox's outer layers repeat the text).
    const hasMarkedBelow = new Set<number>();
    for (const pid of marked) {
      for (let q = processes.get(pid)?.parent; q !== undefined; q = processes.get(q)?.parent) {
        if (hasMarkedBelow.has(q)) break;
        hasMarkedBelow.add(q);
      }
    }
    const shells = [...marked].filter((pid) => !hasMarkedBelow.has(pid)).sort((a, b) => (processes.get(a)?.firstLine ?? 0) - (processes.get(b)?.firstLine ?? 0));
    const ran = list.filter((c) => c.status !== "denied" && c.status !== "invalid");
    if (ran.length > 1) gaps.push(`calls ${ran.map((c) => c.id).join(", ")} ran the same command: their effects are told apart by start order`);
    ran.forEach((c, i) => {
      const shell = shells[i];
      if (shell !== undefined) cores.set(shell, c.id);
      else if (c.status !== "absent") gaps.push(`Bash call ${c.id}: the shell that ran its command was not seen, so nothing is tied to it (its effects, if any, are on the agent or unobserved)`);
    });
  }
  return cores;
}

/** Where bubblewrap builds a sandbox: its new root and the old one in its own fresh tmpfs, and the id maps of the namespace it made. */
const SANDBOX_SETUP = /^(\/tmp)?\/(newroot|oldroot)(\/|$)|^\/proc\/\d+\/(uid_map|gid_map|setgroups)$/;

/**
 * bubblewrap setting up a sandbox inside a call (the gate's confinement, claude's own sandbox):
 * the mounts it makes in its private mount namespace and the maps of its user namespace, by a
 * process running bwrap or forked from one before its payload runs. Machinery, not the command's
 * effect; what the payload then writes through a bind is still seen, by its own path.
 */
function isSandboxSetup(e: ObservedEffect, processes: Map<number, ObservedProcess>): boolean {
  // A symlink is seen by its new name and its target: either side in the sandbox's new root is bubblewrap's making; a rename needs both sides there.
  const inSetup = (p: string | undefined) => p !== undefined && SANDBOX_SETUP.test(p);
  if (!(e.kind === "link" ? inSetup(e.path) || inSetup(e.to) : inSetup(e.path) && (e.to === undefined || inSetup(e.to)))) return false;
  // bwrap itself, or the child it forks to build the sandbox (which later execs the payload).
  const self = processes.get(e.pid);
  const ranBwrap = (p: ObservedProcess | undefined) => p?.execs.some((x) => path.posix.basename(x.path) === "bwrap") ?? false;
  return ranBwrap(self) || ranBwrap(self?.parent === undefined ? undefined : processes.get(self.parent));
}

/**
 * What claude's own wrapper does inside a call's shell, not the command: the shell's exec (`bash -c
 * "source <snapshot> … eval '<command>' … && pwd -P >| <cwd file>"`) and its write of the cwd file.
 */
function shellWrapperNoise(cores: Map<number, string>, processes: Map<number, ObservedProcess>): (e: ObservedEffect) => boolean {
  const cwdFiles = new Set<string>();
  for (const pid of cores.keys()) {
    for (const x of processes.get(pid)?.execs ?? []) {
      for (const a of x.argv) {
        const m = /pwd -P >\| (\S+)\s*$/.exec(a);
        if (m?.[1]) cwdFiles.add(m[1].replace(/^'(.*)'$/, "$1"));
      }
    }
  }
  const firstExec = new Map<number, string>();
  for (const pid of cores.keys()) {
    const x = processes.get(pid)?.execs[0];
    if (x) firstExec.set(pid, JSON.stringify([x.path, ...x.argv.map((a) => a.slice(0, 4096))]));
  }
  return (e) => {
    if (e.kind === "write" && e.path !== undefined && cwdFiles.has(e.path)) return true;
    return e.kind === "exec" && e.errno === undefined && firstExec.get(e.pid) === JSON.stringify([e.path ?? "", ...(e.argv ?? [])]);
  };
}

/** The owner a process the agent started claims: a call's shell, a hook command, an MCP server; undefined: still the agent's. */
function claimed(
  p: ObservedProcess | undefined,
  cores: Map<number, string>,
  hooks: readonly { name: string; command: string; re: RegExp }[],
  context: ObserveContext,
): ObservedOwner | undefined {
  if (!p) return undefined;
  const callId = cores.get(p.pid);
  if (callId !== undefined) return { kind: "call", callId };
  for (const x of p.execs) {
    const [, flag, script] = x.argv;
    if (flag === "-c" && script !== undefined && x.argv.length === 3) {
      const hook = hooks.find((h) => h.re.test(script));
      if (hook) return { kind: "hook", name: hook.name, command: hook.command };
    }
    for (const s of context.mcpServers) {
      if (x.argv.length !== s.args.length + 1 || !s.args.every((a, i) => x.argv[i + 1] === a)) continue;
      const prog = x.argv[0] ?? "";
      if (prog === s.command || path.posix.basename(prog) === path.posix.basename(s.command) || x.path === s.command) return { kind: "mcp", server: s.name };
    }
  }
  return undefined;
}

/** Writes the agent's process made for a Write/Edit call: the file itself or claude's temp file beside it (`name.tmp.PID.HEX`, renamed over it). */
function editCalls(calls: readonly ToolCall[], cwd: string): (e: ObservedEffect) => string | undefined {
  const targets = new Map<string, string>();
  for (const c of calls) {
    if (!EDIT_TOOLS.has(c.name)) continue;
    const file = c.input.file_path ?? c.input.notebook_path;
    if (typeof file === "string" && file !== "") targets.set(path.posix.resolve(cwd, file), c.id);
  }
  if (targets.size === 0) return () => undefined;
  const match = (p: string | undefined) => {
    if (p === undefined) return undefined;
    const exact = targets.get(p);
    if (exact) return exact;
    const tmp = /^(.*)\.tmp\.\d+\.[0-9a-f]+$/.exec(p);
    return tmp?.[1] ? targets.get(tmp[1]) : undefined;
  };
  return (e) => (e.kind === "write" || e.kind === "create" || e.kind === "rename" || e.kind === "chmod" || e.kind === "delete" || e.kind === "mkdir" ? match(e.kind === "rename" ? e.to : e.path) ?? match(e.path) : undefined);
}
