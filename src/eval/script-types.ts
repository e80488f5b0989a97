/**
 * A Script says what the *model* answers, turn by turn, for the main agent and for each
 * subagent. Everything else — tool execution, permissions, hooks, skills — is the real CLI.
 */
import type { ModelRequest } from "../trace/types.js";

/** One tool call the model makes. Several in one turn are parallel calls. */
export interface ScriptToolUse {
  readonly name: string;
  readonly input?: Record<string, unknown>;
  /** The tool_use id; generated (`toolu_…`) when absent. */
  readonly id?: string;
}

/** One content block, for turns that need an exact block order. */
export type ScriptBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "thinking"; readonly thinking: string }
  | ({ readonly type: "tool_use" } & ScriptToolUse);

/** Token counts the turn reports (so cost and token checks can be tested). */
export interface ScriptUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cacheCreationTokens?: number;
  readonly cacheReadTokens?: number;
}

/**
 * An API fault served instead of an answer:
 * `overloaded` (HTTP 529), `server-error` (HTTP 500), `cut` (the SSE stream is cut off
 * mid-message), `stall` (headers and `message_start`, then silence until the client gives up),
 * or any HTTP error status.
 */
export type ScriptFault = "overloaded" | "server-error" | "cut" | "stall" | { readonly status: number; readonly type?: string; readonly message?: string };

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "pause_turn" | "refusal";

/**
 * One assistant turn. Shorthand blocks come out in the order thinking, text, tools; use
 * `blocks` for any other order. A turn with `fault` answers with the fault instead.
 * @example { text: "Let me look.", tools: [{ name: "Bash", input: { command: "ls" } }] }
 */
export interface TurnSpec {
  readonly text?: string;
  readonly thinking?: string;
  readonly tools?: readonly ScriptToolUse[];
  readonly blocks?: readonly ScriptBlock[];
  readonly usage?: ScriptUsage;
  /** @default "tool_use" when the turn calls a tool, else "end_turn" */
  readonly stopReason?: StopReason;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  readonly fault?: ScriptFault;
  /** With `fault`: serve it to this many consecutive requests (retries), each consuming one. @default 1 */
  readonly times?: number;
  /**
   * The agent may end its run without asking for this turn. Without it, a scripted turn that was
   * never asked for makes the run unhealthy (health item `script-consumed`): the run stopped
   * before doing what the script scripted. @default false
   */
  readonly optional?: boolean;
}

/** The last tool result a request carried, for turns that branch on it. */
export interface ToolResultSeen {
  readonly toolUseId: string;
  /** The tool's name, when the call was made by this script. */
  readonly name?: string;
  /**
   * The result's text. For an Agent (or Task) call it is the subagent's answer on every claude:
   * without the agentId trailer (2.1.197) or the hand-back frame (2.1.3xx), and, for a subagent
   * claude ran in the background, the answer its task notification brought (`isError` unless it
   * completed).
   */
  readonly content: string;
  readonly isError: boolean;
}

/** What a function turn is given: the request it answers. */
export interface TurnContext {
  /** `"main"` or the subagent type. */
  readonly agent: string;
  /** 0-based index of the turn being asked for. */
  readonly turn: number;
  readonly request: ModelRequest;
  /** The tool results in the request's last user message, in order. */
  readonly toolResults: readonly ToolResultSeen[];
  /** The last of `toolResults`. */
  readonly lastToolResult?: ToolResultSeen;
  /** The raw request body, for anything else. */
  readonly body: Record<string, unknown>;
}

/** A turn: fixed, or computed from the request it answers (e.g. branch on the last tool result). */
export type Turn = TurnSpec | ((context: TurnContext) => TurnSpec | Promise<TurnSpec>);

/** The turns of one subagent, chosen by its type and/or a matcher on its prompt. */
export interface SubagentScript {
  /** The `subagent_type` of the dispatching Agent call; any type when absent. */
  readonly type?: string;
  /** Substring of, or RegExp over, the Agent call's prompt; any prompt when absent. */
  readonly prompt?: string | RegExp;
  readonly turns: readonly Turn[];
}

/**
 * What the model says in one run.
 * @example { turns: [{ tools: [{ name: "Bash", input: { command: "ls" } }] }, { text: "Done." }] }
 */
export interface Script {
  /** The main agent's turns, in order. */
  readonly turns: readonly Turn[];
  /** Each dispatched subagent gets the first entry that matches it, and runs its turns from the start. */
  readonly subagents?: readonly SubagentScript[];
  /** The answer to the CLI's own side requests (those without tools). @default "OK" */
  readonly sideReply?: string;
  /**
   * The CLI's protocol turns the mock answers itself, so the script lists the model's decisions
   * only and runs unchanged on every supported claude (docs/harness.md, "Turns the mock fills in"):
   * - `background`: while a subagent claude runs in the background (claude ≥ 2.1.3xx, an Agent call
   *   whose input does not set `run_in_background`) is still running, the main agent's turns after
   *   its launch notice and after other tasks' notifications are answered with an empty turn; the
   *   script's next turn answers the request that brings the last notification.
   * - `toolSearch`: before a scripted call of a deferred tool not loaded yet (claude ≥ 2.1.3xx defers
   *   MCP tools), the mock calls `ToolSearch` with `select:<names>` first.
   *
   * `false` turns both off, an object turns off the ones set to `false`: the script then answers
   * those requests itself (to test the protocol). A scripted `ToolSearch` call, or an Agent call
   * that sets `run_in_background`, is always the script's own, whatever this says. Claude Code runs
   * only: a Responses API (Codex) run has no such turns.
   * @default true
   * @example { protocolTurns: { toolSearch: false } }
   */
  readonly protocolTurns?: boolean | { readonly background?: boolean; readonly toolSearch?: boolean };
}
