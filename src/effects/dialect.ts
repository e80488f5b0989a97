/**
 * Dialects: each agent CLI's published tool catalog, split by effect. The effect analysis is one
 * pure detector with the dialect injected, so Claude Code and Codex are judged by the same rules.
 */

/** The tool vocabulary of one agent CLI. */
export interface HarnessDialect {
  /** `claude-code`, `codex`. */
  readonly name: string;
  /** Every built-in tool the CLI may offer, current and older names alike. */
  readonly builtinAgentTools: readonly string[];
  /** The built-in tools that change state (files, processes, schedules, the outside world). */
  readonly sideEffectingTools: readonly string[];
  /** How the CLI names MCP tools (`mcp__server__tool`). */
  readonly mcpToolPattern: RegExp;
  /** Shell tools, whose effect the runtime gate refines per command. */
  readonly shellTools: readonly string[];
  /** Tools that can read private data (files, secrets) — the first lethal-trifecta leg. */
  readonly privateDataTools: readonly string[];
  /** Tools that bring untrusted content into the context — the second leg. MCP tools count too. */
  readonly untrustedInputTools: readonly string[];
  /** Tools that can send data off the machine — the third leg. MCP tools count too. */
  readonly exfiltrationTools: readonly string[];
}

/**
 * Claude Code's tools, checked against the `tools` list a real run of the CLI in
 * devDependencies reports (see test/effects/dialect-catalog.test.ts), plus names older versions
 * used (`Task`, `MultiEdit`, `LS`, `BashOutput`, `KillBash`, …), so old transcripts classify too.
 *
 * Delegation and bookkeeping tools (`Agent`, `Skill`, the task list, plan mode) are read-only:
 * they change nothing outside the session, and a subagent's own calls are classified — and gated
 * — one by one.
 */
export const claudeCodeDialect: HarnessDialect = Object.freeze({
  name: "claude-code",
  builtinAgentTools: Object.freeze([
    // read-only
    "Read", "Glob", "Grep", "LS", "NotebookRead", "Agent", "Task", "Skill", "TaskCreate", "TaskGet", "TaskList",
    "TaskUpdate", "TaskOutput", "TodoWrite", "CronList", "BashOutput", "ExitPlanMode", "EnterPlanMode",
    "ReportFindings", "ToolSearch", "ListMcpResourcesTool", "ReadMcpResourceTool", "SlashCommand", "LSP",
    "ListAgents", "AskUserQuestion",
    // side-effecting
    "Bash", "PowerShell", "Monitor", "Edit", "MultiEdit", "Write", "NotebookEdit", "WebFetch", "WebSearch", "KillBash",
    "KillShell", "TaskStop", "CronCreate", "CronDelete", "ScheduleWakeup", "SendMessage", "Workflow",
    "EnterWorktree", "ExitWorktree",
  ]),
  sideEffectingTools: Object.freeze([
    "Bash", "PowerShell", "Monitor", "Edit", "MultiEdit", "Write", "NotebookEdit", "WebFetch", "WebSearch", "KillBash",
    "KillShell", "TaskStop", "CronCreate", "CronDelete", "ScheduleWakeup", "SendMessage", "Workflow",
    "EnterWorktree", "ExitWorktree",
  ]),
  mcpToolPattern: /^mcp__[^_].*__.+$/,
  // Monitor (claude ≥ 2.1.3xx) runs a shell command in the background: a shell in every respect.
  shellTools: Object.freeze(["Bash", "PowerShell", "Monitor"]),
  privateDataTools: Object.freeze(["Read", "Grep", "NotebookRead", "Bash", "PowerShell", "Monitor"]),
  untrustedInputTools: Object.freeze(["WebFetch", "WebSearch"]),
  exfiltrationTools: Object.freeze(["WebFetch", "WebSearch", "Bash", "PowerShell", "Monitor"]),
});

/**
 * Codex's tools. Its tool names change between versions, so the catalog carries every spelling
 * seen so far (`shell`, `local_shell`, `exec_command`, …).
 */
export const codexDialect: HarnessDialect = Object.freeze({
  name: "codex",
  builtinAgentTools: Object.freeze([
    "shell", "local_shell", "exec_command", "write_stdin", "unified_exec", "apply_patch", "update_plan", "web_search",
    "view_image", "read_file", "list_dir", "grep_files", "list_mcp_resources", "list_mcp_resource_templates",
    "read_mcp_resource",
    // Agent-state tools (asking the user, goals, searching the tool catalog, dispatching agents):
    // they change no file and reach no network; a dispatched agent's own calls are judged one by one.
    "request_user_input", "get_goal", "create_goal", "update_goal", "tool_search", "multi_agent_v1",
  ]),
  sideEffectingTools: Object.freeze(["shell", "local_shell", "exec_command", "write_stdin", "unified_exec", "apply_patch", "web_search"]),
  mcpToolPattern: /^mcp__[^_].*__.+$/,
  shellTools: Object.freeze(["shell", "local_shell", "exec_command", "unified_exec"]),
  privateDataTools: Object.freeze(["read_file", "grep_files", "shell", "local_shell", "exec_command", "unified_exec"]),
  untrustedInputTools: Object.freeze(["web_search"]),
  exfiltrationTools: Object.freeze(["web_search", "shell", "local_shell", "exec_command", "unified_exec"]),
});

/** `Bash(git:*)` → `Bash`: a restriction narrows what a tool may do, not its effect class. */
export function baseToolOf(declaration: string): string {
  const paren = declaration.indexOf("(");
  return (paren === -1 ? declaration : declaration.slice(0, paren)).trim();
}

/** The restriction inside `Tool(…)`, or `undefined` for an unrestricted grant. */
export function restrictionOf(declaration: string): string | undefined {
  const open = declaration.indexOf("(");
  const close = declaration.lastIndexOf(")");
  if (open === -1 || close <= open) return undefined;
  return declaration.slice(open + 1, close).trim();
}

/** The command a shell tool call runs: `input.command` (a string, or Codex's argv array). */
export function shellCommandOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const command = (input as Record<string, unknown>).command ?? (input as Record<string, unknown>).cmd;
  if (typeof command === "string") return command;
  if (Array.isArray(command) && command.every((c) => typeof c === "string")) {
    const argv = command as string[];
    // Codex sends ["bash", "-lc", "<script>"]; anything else is an argv, which we quote.
    if (argv.length === 3 && /^(?:\/bin\/)?(?:ba|z)?sh$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? "")) return argv[2];
    return argv.map((a) => (/^[\w./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
  }
  return undefined;
}
