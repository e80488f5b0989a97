/**
 * Tool names are evidence too: a check that names a tool the run could never have called (a
 * typo, a tool of another agent) must not pass as "no call to it". A name counts as possible when
 * the run offered it, called it, a model request listed it, it is a known tool of that agent, or
 * it has the `mcp__server__tool` shape. Traces with no record of offered tools are not judged.
 */
import type { Trace } from "../trace/types.js";
import { at } from "../util/narrow.js";

/** Claude Code's own tools, across the versions proctor has read (older and newer names alike). */
const CLAUDE_TOOLS = [
  "Agent", "AskUserQuestion", "Bash", "BashOutput", "CronCreate", "CronDelete", "CronList", "Edit", "EnterPlanMode", "EnterWorktree",
  "ExitPlanMode", "ExitWorktree", "Glob", "Grep", "KillBash", "KillShell", "LS", "ListAgents", "ListMcpResourcesTool", "Monitor", "MultiEdit", "NotebookEdit",
  "NotebookRead", "Read", "ReadMcpResourceTool", "ReportFindings", "ScheduleWakeup", "SendMessage", "Skill", "SlashCommand", "Task",
  "TaskCreate", "TaskGet", "TaskList", "TaskOutput", "TaskStop", "TaskUpdate", "TodoRead", "TodoWrite", "ToolSearch", "WebFetch",
  "WebSearch", "Workflow", "Write",
];

/** Codex's tools as proctor names them in a Trace. */
const CODEX_TOOLS = ["apply_patch", "exec_command", "list_dir", "local_shell", "read_file", "shell", "update_plan", "view_image", "web_search", "write_stdin", "grep_files"];

const MCP_NAME = /^mcp__[^_].*__\S+$/;

/** Every name this trace could have called, or `undefined` when it does not record what it offered. */
export function possibleToolNames(trace: Trace): Set<string> | undefined {
  if (!Array.isArray(trace.source?.tools)) return undefined;
  const names = new Set<string>(trace.source.tools);
  for (const c of trace.toolCalls) names.add(c.name);
  for (const r of trace.modelRequests ?? []) for (const t of r.tools) names.add(t.name);
  for (const n of trace.source.kind === "codex" ? CODEX_TOOLS : CLAUDE_TOOLS) names.add(n);
  return names;
}

/** `possibleToolNames(trace).has(name)`, asked without building the set. */
function isPossibleToolName(trace: Trace, name: string): boolean {
  return (
    (trace.source.tools ?? []).includes(name) ||
    (trace.source.kind === "codex" ? CODEX_TOOLS : CLAUDE_TOOLS).includes(name) ||
    trace.toolCalls.some((c) => c.name === name) ||
    (trace.modelRequests ?? []).some((r) => r.tools.some((t) => t.name === name))
  );
}

/**
 * Why `name` cannot be a tool of this run, with the nearest real name ("did you mean Bash?"), or
 * `undefined` when it can be (globs, `mcp__` names and traces without an offered-tools record
 * always can).
 */
export function unknownToolName(trace: Trace, name: string): string | undefined {
  if (name.includes("*") || MCP_NAME.test(name)) return undefined;
  // The common case, a real name, without building the whole set (checks ask once per trace each).
  if (!Array.isArray(trace.source?.tools) || isPossibleToolName(trace, name)) return undefined;
  const names = possibleToolNames(trace);
  if (!names || names.has(name)) return undefined;
  const near = nearestName(name, names);
  const offered = trace.source.tools ?? [];
  return (
    `no tool named ${JSON.stringify(name)} was offered in this run, nor is it a known ${trace.source.kind === "codex" ? "Codex" : "Claude Code"} tool or an mcp__server__tool name` +
    (near ? `; did you mean ${near}?` : `; offered: ${offered.slice(0, 12).join(", ")}${offered.length > 12 ? ", …" : ""}`) +
    " (a misspelt name is not evidence that the tool went unused)"
  );
}

/** The closest name by edit distance (case-insensitive), when it is close enough to be a slip. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** Levenshtein distance: the fewest single-character edits that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(at(prev, j) + 1, at(cur, j - 1) + 1, at(prev, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return at(prev, b.length);
}

/**
 * Does a skill or subagent `name` as the run recorded it answer to `id`? `plugin:name` matches
 * exactly; a bare `name` also matches any plugin's `plugin:name`, as Claude Code resolves it.
 */
export function answersTo(id: string, name: string): boolean {
  return name === id || (!id.includes(":") && name.endsWith(`:${id}`));
}

/**
 * The distinct recorded names a bare `id` matched, when they are more than one and none is `id`
 * itself: two plugins' `a:x` and `b:x` for `x` — ambiguous, so a check says so instead of guessing.
 */
export function ambiguousNames(id: string, names: Iterable<string>): string[] | undefined {
  const hits = new Set<string>();
  for (const n of names) if (answersTo(id, n)) hits.add(n);
  return hits.size > 1 && !hits.has(id) ? [...hits].sort() : undefined;
}
