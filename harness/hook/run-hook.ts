/**
 * runHook: run one hook command the way Claude Code does — through a shell, the event's JSON on
 * stdin, CLAUDE_PROJECT_DIR set, killed (tree and all) at its timeout — and read its answer with
 * the same interpretation the transcript reader uses.
 */
import path from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { interpretHookOutput } from "../../src/hook/interpret.js";
import type { HookRunResult } from "../../src/hook/types.js";
import { runProcess } from "../process/run-process.js";
import { hookToolName, matcherMatches, matcherTarget } from "./matcher.js";
import { requireObject, requireString } from "../../src/errors/arguments.js";

export interface RunHookOptions {
  /** The hook's matcher from the settings (`"Bash"`, `"Edit|Write"`, `"mcp__.*"`, `"*"`); absent matches everything. */
  readonly matcher?: string;
  /** Tool events: the tool being called. */
  readonly toolName?: string;
  readonly toolInput?: Record<string, unknown>;
  /** PostToolUse: what the tool returned. */
  readonly toolResponse?: unknown;
  readonly toolUseId?: string;
  /** UserPromptSubmit: the prompt. */
  readonly prompt?: string;
  /** Stop/SubagentStop: true when the agent is already replying to a Stop hook. @default false */
  readonly stopHookActive?: boolean;
  /** Stop/SubagentStop: the reply the agent is stopping with. */
  readonly lastAssistantMessage?: string;
  /** SessionStart: `startup`, `resume`, `clear`, `compact`. @default "startup" */
  readonly source?: string;
  /** @default "default" */
  readonly permissionMode?: string;
  /** More stdin fields, or overrides of the ones above (snake_case, as Claude Code sends them). */
  readonly input?: Record<string, unknown>;
  /** The project dir: the hook's cwd and CLAUDE_PROJECT_DIR. @default process.cwd() */
  readonly cwd?: string;
  /** Sets CLAUDE_PLUGIN_ROOT, so `${CLAUDE_PLUGIN_ROOT}` in a plugin hook's command resolves. */
  readonly pluginRoot?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** @default 60000 (Claude Code's default hook timeout) */
  readonly timeoutMs?: number;
  /** The shell that runs the command. @default "/bin/sh" */
  readonly shell?: string;
}

const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

/** The JSON Claude Code writes to a hook's stdin for this event. */
export function buildHookInput(event: string, options: RunHookOptions, cwd: string): Record<string, unknown> {
  requireString("buildHookInput", "event", event, 'a hook event name such as "PreToolUse"');
  requireObject("buildHookInput", "options", options, "hook options such as { toolName, toolInput }");
  requireString("buildHookInput", "cwd", cwd, "the directory the hook runs in");
  const input: Record<string, unknown> = {
    session_id: "proctor-hook-session",
    transcript_path: path.join(cwd, ".proctor-hook-transcript.jsonl"),
    cwd,
    hook_event_name: event,
    permission_mode: options.permissionMode ?? "default",
  };
  if (TOOL_EVENTS.has(event)) {
    input.tool_name = options.toolName === undefined ? undefined : hookToolName(options.toolName);
    input.tool_input = options.toolInput ?? {};
    input.tool_use_id = options.toolUseId ?? "toolu_proctor_hook";
    if (event !== "PreToolUse" && event !== "PermissionRequest") input.tool_response = options.toolResponse ?? {};
  }
  if (event === "UserPromptSubmit") input.prompt = options.prompt ?? "";
  if (event === "Stop" || event === "SubagentStop") {
    input.stop_hook_active = options.stopHookActive ?? false;
    if (options.lastAssistantMessage !== undefined) input.last_assistant_message = options.lastAssistantMessage;
  }
  if (event === "SessionStart") input.source = options.source ?? "startup";
  return { ...input, ...options.input };
}

function requireOptions(command: unknown, event: unknown, options: RunHookOptions): void {
  if (typeof command !== "string" || command.trim() === "") throw new InvalidInputError("INVALID_INPUT", `runHook: command must be a non-empty shell command; got ${JSON.stringify(command)}`);
  if (typeof event !== "string" || !/^[A-Z]\w+$/.test(event)) {
    throw new InvalidInputError("INVALID_INPUT", `runHook: event must be a hook event name like "PreToolUse" or "Stop"; got ${JSON.stringify(event)}`);
  }
  if (TOOL_EVENTS.has(event) && typeof options.toolName !== "string") {
    throw new InvalidInputError("INVALID_INPUT", `runHook: a ${event} hook needs options.toolName (the tool being called, e.g. "Bash")`);
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw new InvalidInputError("INVALID_INPUT", `runHook: timeoutMs must be a positive number; got ${JSON.stringify(options.timeoutMs)}`);
}

/** Run one hook command as Claude Code would for `event`, and say what it decided. */
export async function runHook(command: string, event: string, options: RunHookOptions = {}): Promise<HookRunResult> {
  requireOptions(command, event, options);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const target = matcherTarget(event, options);
  if (options.matcher !== undefined && target !== undefined && !matcherMatches(options.matcher, target)) {
    return { ran: false, event, command, exitCode: null, stdout: "", stderr: "", timedOut: false, durationMs: 0, blocked: false, blockedBy: [] };
  }
  const env: Record<string, string> = {
    ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>),
    CLAUDE_PROJECT_DIR: cwd,
    ...(options.pluginRoot ? { CLAUDE_PLUGIN_ROOT: path.resolve(options.pluginRoot) } : {}),
    ...options.env,
  };
  const proc = await runProcess(options.shell ?? "/bin/sh", ["-c", command], {
    cwd,
    env,
    input: JSON.stringify(buildHookInput(event, options, cwd)),
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  if (proc.spawnError) throw new InvalidInputError("INVALID_INPUT", `runHook: could not start the shell ${options.shell ?? "/bin/sh"}: ${proc.spawnError.message}`, { cause: proc.spawnError });
  const exitCode = proc.timedOut ? null : proc.exitCode;
  const verdict = proc.timedOut ? { blocked: false, blockedBy: [] } : interpretHookOutput(exitCode, proc.stdout, proc.stderr);
  return {
    ran: true,
    event,
    command,
    exitCode,
    stdout: proc.stdout,
    stderr: proc.stderr,
    timedOut: proc.timedOut,
    durationMs: proc.durationMs,
    ...verdict,
  };
}
