/**
 * `scriptFromTranscript`: one recorded run becomes a mock script that says exactly what the model
 * said — every turn's text, thinking and tool calls (same ids, same inputs, in the same order),
 * per agent, routed to subagents as the recording routed them, with the recorded stop reasons and
 * usage. Replayed on the real binary, the run makes the same calls; what the tools, hooks and
 * permissions answer *now* is what a replay tests.
 */
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { replaceWorkDir } from "../../src/trace/replay-diff.js";
import { wordingDrift } from "../../src/trace/version-drift.js";
import type { ModelRequest } from "../../src/trace/types.js";
import type { Script, SubagentScript, Turn, TurnContext, TurnSpec } from "../script/types.js";
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
}

/** The note a replay ends with once it stops at a divergence. */
export const REPLAY_STOPPED = "[replay stopped at the first divergence from the recording]";
/** The note a replay answers with when the run asks for a turn the recording does not have. */
export const REPLAY_EXHAUSTED = "[replay: the run asked for a turn the recording does not have]";

const WORKDIR = /Primary working directory: (.+)/;

/** The replay's work dir, read from the system prompt the CLI sends. */
function workDirOf(request: ModelRequest): string | undefined {
  return WORKDIR.exec(request.system)?.[1]?.trim();
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

  const turnOf = (agent: RecordedAgent, index: number, recorded: RecordedTurn): Turn => (context) => {
    const now = workDirOf(context.request);
    options.onTurn?.(agent.id, index + 1);
    compare(agent, index, context, now);
    if (stopped) return { text: REPLAY_STOPPED, stopReason: "end_turn" };
    const blocks = recordedCwd && now && recordedCwd !== now ? rewrite(recorded.blocks, recordedCwd, now) : recorded.blocks;
    const spec: TurnSpec = {
      blocks,
      ...(recorded.usage ? { usage: recorded.usage } : {}),
      ...(recorded.stopReason && (recorded.stopReason !== "tool_use" || blocks.some((b) => b.type === "tool_use")) ? { stopReason: recorded.stopReason } : {}),
    };
    return spec;
  };
  const turnsOf = (agent: RecordedAgent): Turn[] => [
    ...agent.turns.map((t, i) => turnOf(agent, i, t)),
    // One turn past the recording, so a run that now asks for more ends with a note, not an overrun.
    (context) => {
      options.onTurn?.(agent.id, agent.turns.length + 1);
      compare(agent, agent.turns.length, context, workDirOf(context.request));
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
  return { turns: turnsOf(recording.main), ...(subagents.length ? { subagents } : {}) };
}
