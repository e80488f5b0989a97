/**
 * `scriptFromTranscript`: one recorded run becomes a mock script that says exactly what the model
 * said — every turn's text, thinking and tool calls (same ids, same inputs, in the same order),
 * per agent, routed to subagents as the recording routed them, with the recorded stop reasons and
 * usage. Replayed on the real binary, the run makes the same calls; what the tools, hooks and
 * permissions answer *now* is what a replay tests.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { replaceWorkDir } from "../../src/trace/replay-diff.js";
import { wordingDrift } from "../../src/trace/version-drift.js";
import type { ModelRequest } from "../../src/trace/types.js";
import type { Script, ScriptBlock, SubagentScript, Turn, TurnContext, TurnSpec } from "../script/types.js";
import { MAIN, readRecording, type RecordedAgent, type RecordedTurn, type Recording } from "./recording.js";

/** A difference the mock saw while replaying: a tool result the run fed back is not the recorded one. */
export interface LiveDivergence {
  /** `"main"` or the dispatching Agent call's id. */
  readonly agent: string;
  /** 1-based number of the agent's recorded turn whose request carried the result. */
  readonly turn: number;
  readonly callId: string;
  readonly recorded: string;
  readonly now: string;
}

export interface ReplayScriptOptions {
  /** Stop at the first divergence: every agent then ends its turn with a note instead of replaying on. @default false */
  readonly stopAtFirstDivergence?: boolean;
  /** Compare tool results by their error flag only, not their text (timestamps, ids, sizes). @default false */
  readonly ignoreResultText?: boolean;
  /** Called for each divergence the mock sees, as it happens. */
  readonly onDivergence?: (divergence: LiveDivergence) => void;
  /**
   * Results that differ only by a known wording change between claude versions (KNOWN_WORDING_CHANGES)
   * are not divergences: set when the recording and the replay run on different claude versions. @default false
   */
  readonly acrossVersions?: boolean;
  /** Called when the run asks for one of an agent's recorded turns (`agent` as in LiveDivergence, `turn` 1-based). */
  readonly onTurn?: (agent: string, turn: number) => void;
  /**
   * Absolute paths outside the replay's work dir that recorded calls may still name (a system
   * header a recorded Read opened). Any other path outside it is refused. @default []
   */
  readonly allowOutside?: readonly string[];
  /** Called once, with the names of the tools the run's first request offers, before the mock answers it. */
  readonly onFirstRequest?: (offered: readonly string[]) => void;
  /** Called for each recorded call the replay refused to make because a path in it leaves the work dir. */
  readonly onRefused?: (refusal: RefusedCall) => void;
}

/** A recorded call the replay did not make: after rewriting the recording's work dir, it still names a path outside the replay's. */
export interface RefusedCall {
  readonly agent: string;
  /** 1-based recorded turn. */
  readonly turn: number;
  readonly callId: string;
  readonly tool: string;
  /** The input field and the path it names. */
  readonly field: string;
  readonly path: string;
}

/** The note a replay ends with once it stops at a divergence. */
export const REPLAY_STOPPED = "[replay stopped at the first divergence from the recording]";
/** The note a replay answers with when the run asks for a turn the recording does not have. */
export const REPLAY_EXHAUSTED = "[replay: the run asked for a turn the recording does not have]";

// The main agent's system prompt says "Primary working directory: …"; a subagent's says "Working directory: …".
const WORKDIR = /^(?:\s*-\s*)?(?:Primary working directory|Working directory): (.+)$/m;

/**
 * Input fields the built-in tools read as a path (and an absolute `pattern`, by its fixed leading
 * directories). A path anywhere else (a Bash command) is rewritten but not checked: the replay runs
 * in claude's sandbox by default, which confines what such a command writes.
 */
const PATH_FIELDS = ["file_path", "path", "notebook_path", "cwd"] as const;

/** The path fields of a tool input that name a place outside `workDir` and every allowed root. */
export function pathsOutside(input: unknown, workDir: string, allowed: readonly string[]): { field: string; path: string }[] {
  if (input === null || typeof input !== "object") return [];
  const inside = (root: string, p: string) => {
    const rel = relative(root, p);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  };
  const out: { field: string; path: string }[] = [];
  for (const field of PATH_FIELDS) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value !== "string" || value === "") continue;
    // `~` is the trial's own HOME, which the harness makes per run.
    if (value === "~" || value.startsWith("~/")) continue;
    const full = resolve(workDir, value);
    if (!inside(workDir, full) && !allowed.some((root) => inside(resolve(root), full))) out.push({ field, path: value });
  }
  // An absolute glob (Glob's `pattern`) reads where its fixed leading directories point.
  const pattern = (input as Record<string, unknown>).pattern;
  if (typeof pattern === "string" && isAbsolute(pattern)) {
    const fixed = pattern.split("/").filter((_, i, parts) => !parts.slice(0, i + 1).some((p) => /[*?[\]{}]/.test(p)));
    const root = fixed.join("/") || "/";
    if (!inside(workDir, root) && !allowed.some((r) => inside(resolve(r), root))) out.push({ field: "pattern", path: pattern });
  }
  return out;
}

/**
 * The replay's work dir as the CLI tells the model: in the system prompt (claude 2.1.197), or in
 * the environment reminder of a user message (2.1.332) — never in the model's own words.
 */
function workDirOf(request: ModelRequest): string | undefined {
  return WORKDIR.exec(request.system)?.[1]?.trim() ?? WORKDIR.exec(request.inbound ?? "")?.[1]?.trim();
}

/** Every string inside `value` with `from` replaced by `to`. */
function rewrite<T>(value: T, from: string, to: string): T {
  if (typeof value === "string") return replaceWorkDir(value, from, to) as T;
  if (Array.isArray(value)) return value.map((v) => rewrite(v, from, to)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: rewrite((value as Record<string, unknown>)[key], from, to), enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return value;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Build a replay script from a recording: a path (`claude -p --output-format stream-json`, a
 * Claude Code session log or its folder) or the transcript text. Each turn compares the tool
 * results it receives with the recorded ones (`onDivergence`), and rewrites the recording's work
 * dir to the replay's in the tool inputs it sends. A subagent dispatched twice with the same type
 * and prompt replays its first recording both times.
 */
export function scriptFromTranscript(source: string, options: ReplayScriptOptions = {}): Script {
  return scriptFromRecording(readRecording(source), options);
}

/** `scriptFromTranscript` over a recording already read. */
export function scriptFromRecording(recording: Recording, options: ReplayScriptOptions = {}): Script {
  const r = recording as Partial<Recording> | null;
  if (typeof r?.main !== "object" || !Array.isArray(r.subagents) || !(r.results instanceof Map)) {
    throw new InvalidInputError("INVALID_INPUT", "scriptFromRecording(recording) needs a recording", { input: "recording", hint: "pass what readRecording(path) returns, or call scriptFromTranscript(path)" });
  }
  let stopped = false;
  const recordedCwd = recording.cwd;
  // The replay's work dir as last seen in any agent's system prompt: a prompt that does not say it
  // still gets its paths rewritten and checked.
  let replayCwd: string | undefined;

  // An Agent call's result is the subagent's answer plus the CLI's per-run bookkeeping (agentId,
  // durations); the subagent's own calls are compared one by one, so only its error flag is here.
  const dispatches = new Set(recording.subagents.map((s) => s.id));
  const compare = (agent: RecordedAgent, turnIndex: number, context: TurnContext, now: string | undefined) => {
    for (const seen of context.toolResults) {
      const recorded = recording.results.get(seen.toolUseId);
      if (!recorded) continue;
      const normal = (text: string, cwd: string | undefined) => (cwd ? replaceWorkDir(text, cwd, "<cwd>") : text);
      const a = normal(recorded.content, recordedCwd);
      const b = normal(seen.content, now);
      const textCompared = !options.ignoreResultText && !dispatches.has(seen.toolUseId);
      const differs = recorded.isError !== seen.isError || (textCompared && a !== b && !(options.acrossVersions && wordingDrift(a, b)));
      if (!differs) continue;
      options.onDivergence?.({
        agent: agent.id,
        turn: turnIndex + 1,
        callId: seen.toolUseId,
        recorded: `${recorded.isError ? "error: " : ""}${a}`,
        now: `${seen.isError ? "error: " : ""}${b}`,
      });
      if (options.stopAtFirstDivergence) stopped = true;
    }
  };

  let first = true;
  const nowOf = (context: TurnContext): string | undefined => {
    if (first) {
      first = false;
      options.onFirstRequest?.(context.request.tools.map((t) => t.name));
    }
    const seen = workDirOf(context.request);
    if (seen) replayCwd = seen;
    return replayCwd;
  };

  /** The recorded blocks without the calls that would leave the replay's work dir, each replaced by a note. */
  const confined = (agent: RecordedAgent, index: number, blocks: readonly ScriptBlock[], now: string | undefined): ScriptBlock[] => {
    if (!now) return [...blocks];
    const out: ScriptBlock[] = [];
    for (const block of blocks) {
      const outside = block.type === "tool_use" ? pathsOutside(block.input, now, options.allowOutside ?? []) : [];
      if (block.type !== "tool_use" || outside.length === 0) {
        out.push(block);
        continue;
      }
      for (const { field, path } of outside) options.onRefused?.({ agent: agent.id, turn: index + 1, callId: block.id ?? "", tool: block.name, field, path });
      out.push({ type: "text", text: `[replay refused ${block.name}${block.id ? ` ${block.id}` : ""}: ${outside.map((o) => `${o.field} ${o.path}`).join(", ")} is outside the replay's work dir]` });
    }
    return out;
  };

  const turnOf = (agent: RecordedAgent, index: number, recorded: RecordedTurn): Turn => (context) => {
    const now = nowOf(context);
    options.onTurn?.(agent.id, index + 1);
    compare(agent, index, context, now);
    if (stopped) return { text: REPLAY_STOPPED, stopReason: "end_turn" };
    const rewritten = recordedCwd && now && recordedCwd !== now ? rewrite(recorded.blocks, recordedCwd, now) : recorded.blocks;
    const blocks = confined(agent, index, rewritten, now);
    const calls = blocks.some((b) => b.type === "tool_use");
    const spec: TurnSpec = {
      blocks,
      ...(recorded.usage ? { usage: recorded.usage } : {}),
      ...(recorded.stopReason && (recorded.stopReason !== "tool_use" || calls) ? { stopReason: recorded.stopReason } : {}),
      ...(!calls && recorded.stopReason === "tool_use" ? { stopReason: "end_turn" as const } : {}),
    };
    return spec;
  };
  const turnsOf = (agent: RecordedAgent): Turn[] => [
    ...agent.turns.map((t, i) => turnOf(agent, i, t)),
    // One turn past the recording, so a run that now asks for more ends with a note, not an overrun.
    (context) => {
      options.onTurn?.(agent.id, agent.turns.length + 1);
      compare(agent, agent.turns.length, context, nowOf(context));
      return { text: stopped ? REPLAY_STOPPED : REPLAY_EXHAUSTED, stopReason: "end_turn" };
    },
  ];

  const subagents: SubagentScript[] = recording.subagents
    .filter((s) => s.id !== MAIN)
    .sort((a, b) => (b.prompt?.length ?? 0) - (a.prompt?.length ?? 0))
    .map((s) => ({
      ...(s.type !== undefined ? { type: s.type } : {}),
      ...(s.prompt !== undefined
        ? {
            prompt: new RegExp(
              `^${(recordedCwd ? s.prompt.split(recordedCwd).map(escapeRegExp).join("[\\s\\S]*?") : escapeRegExp(s.prompt))}$`,
            ),
          }
        : {}),
      turns: turnsOf(s),
    }));
  // A recording whose model answered claude's background-task turns itself replays them as recorded.
  return { turns: turnsOf(recording.main), ...(subagents.length ? { subagents } : {}), ...(recording.answeredBackground ? { protocolTurns: { background: false } } : {}) };
}
