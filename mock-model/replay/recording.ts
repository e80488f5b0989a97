/**
 * A recorded run read back into what the *model* said: per agent (the main agent and each
 * subagent, keyed by the Agent call that dispatched it), its turns in order — text, thinking and
 * tool_use blocks with their ids and inputs, stop reason and usage — and the tool results the
 * run fed back, by tool_use id. Reads `claude -p --output-format stream-json` and Claude Code
 * session logs (rewritten to stream-json first, so both read alike).
 */
import { InvalidInputError, TranscriptError } from "../../src/errors/proctor-error.js";
import { readEventFile } from "../../src/io/read-bounded.js";
import { convertSessionLog, isSessionLog, readTranscriptFiles, sessionPrompt } from "../../src/trace/session-log.js";
import { TRANSCRIPT_LIMITS } from "../../src/trace/transcript.js";
import { handBackText, launchedInBackground } from "../../src/trace/readers/claude-segments.js";
import { LAUNCH_NOTICE } from "../run/protocol.js";
import { contentText } from "../run/flatten.js";
import type { ScriptBlock, ScriptUsage, StopReason } from "../script/types.js";
import { asArray, asRecord } from "../../src/util/narrow.js";

type Json = Record<string, unknown>;

export const MAIN = "main";

/** One assistant message of the recording. */
export interface RecordedTurn {
  readonly blocks: ScriptBlock[];
  stopReason?: StopReason;
  usage?: ScriptUsage;
}

/** The turns of one agent: the main agent, or a subagent and the call that dispatched it. */
export interface RecordedAgent {
  /** `"main"`, or the dispatching Agent call's tool_use id. */
  readonly id: string;
  readonly type?: string;
  readonly prompt?: string;
  readonly turns: RecordedTurn[];
}

/** What a recording says the model said, and what the run answered. */
export interface Recording {
  /** The work dir the recording ran in (rewritten to the replay's work dir in tool inputs). */
  readonly cwd?: string;
  /** The prompt, when the recording holds it (session logs do; stream-json does not). */
  readonly prompt?: string;
  readonly main: RecordedAgent;
  /** In order of dispatch. */
  readonly subagents: RecordedAgent[];
  /** Every tool result the run fed back, by tool_use id, as the model received it. */
  readonly results: Map<string, { readonly content: string; readonly isError: boolean }>;
  /** The stream-json text the recording reads as (a session log after rewriting). */
  readonly streamJson: string;
  /**
   * The recorded model answered the main agent's turns while a subagent claude ran in the
   * background was still running (claude ≥ 2.1.3xx): the recording holds those protocol turns, so a
   * replay serves them itself rather than letting the mock fill them in.
   */
  readonly answeredBackground: boolean;
}

const STOP_REASONS = new Set<StopReason>(["end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"]);

function usageOf(value: unknown): ScriptUsage | undefined {
  if (!value || typeof value !== "object") return undefined;
  const u = asRecord(value);
  const n = (k: string) => (typeof u[k] === "number" ? (u[k] as number) : undefined);
  const [inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens] = [n("input_tokens"), n("output_tokens"), n("cache_creation_input_tokens"), n("cache_read_input_tokens")];
  const usage: ScriptUsage = {
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(cacheCreationTokens !== undefined ? { cacheCreationTokens } : {}),
    ...(cacheReadTokens !== undefined ? { cacheReadTokens } : {}),
  };
  return Object.keys(usage).length ? usage : undefined;
}

/** The CLI appends `agentId: … <usage>…</usage>` to a subagent's answer; the model said only what precedes it. */
function withoutTrailer(text: string): string {
  return text.replace(/\n*agentId: [\w-]+ \(use SendMessage[\s\S]*$/, "");
}

/** Read the recording at `source`: a path (stream-json, a session log or its folder) or the text itself. */
export function readRecording(source: string): Recording {
  if (typeof source !== "string" || source === "") {
    throw new InvalidInputError("INVALID_INPUT", `a recording must be a transcript path or its text; got ${source === "" ? "an empty string" : typeof source}`);
  }
  const isText = source.includes("\n") || source.trimStart().startsWith("{");
  let text: string;
  let prompt: string | undefined;
  if (isText) {
    text = source;
    if (isSessionLog(text)) {
      prompt = sessionPrompt(text);
      text = convertSessionLog(text).streamJson;
    }
  } else {
    const files = readTranscriptFiles(source, (file) =>
      readEventFile(file, TRANSCRIPT_LIMITS, {
        noun: "recording",
        reader: "readRecording",
        hint: "record one with `claude -p PROMPT --output-format stream-json --verbose --include-hook-events > run.jsonl`, or pass a Claude Code session log",
      }),
    );
    if (files.subagents) {
      prompt = sessionPrompt(files.text);
      text = convertSessionLog(files.text, files.subagents, files.file).streamJson;
    } else {
      text = files.text;
    }
  }
  return parseRecording(text, prompt);
}

/** Group stream-json events into per-agent turns. */
function parseRecording(text: string, prompt: string | undefined): Recording {
  const main: RecordedAgent = { id: MAIN, turns: [] };
  const agents = new Map<string, RecordedAgent>([[MAIN, main]]);
  const subagents: RecordedAgent[] = [];
  const results = new Map<string, { content: string; isError: boolean }>();
  const handBacks = new Map<string, string>();
  const current = new Map<string, { id: unknown; turn: RecordedTurn }>();
  let cwd: string | undefined;
  let sawAssistant = false;
  // Dispatches the recording's model left to claude's default that ran in the background, until notified.
  const defaultDispatches = new Set<string>();
  const running = new Set<string>();
  let answeredBackground = false;

  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let e: Json;
    try {
      e = JSON.parse(line) as Json;
    } catch {
      continue; // the Trace of the recording reports malformed lines; a replay replays what it can read
    }
    if (e.type === "system" && e.subtype === "init" && typeof e.cwd === "string") cwd = e.cwd;
    if (e.type === "system" && e.subtype === "task_notification" && typeof e.tool_use_id === "string") running.delete(e.tool_use_id);
    const parent = typeof e.parent_tool_use_id === "string" ? e.parent_tool_use_id : MAIN;
    if (e.type === "assistant") {
      const message = e.message as Json | undefined;
      if (!message || message.model === "<synthetic>") continue; // the CLI's own error text, not the model's
      sawAssistant = true;
      let agent = agents.get(parent);
      if (!agent) {
        agent = { id: parent, turns: [] };
        agents.set(parent, agent);
        subagents.push(agent);
      }
      const open = current.get(parent);
      let turn: RecordedTurn;
      if (open && message.id !== undefined && open.id === message.id) turn = open.turn;
      else {
        turn = { blocks: [] };
        agent.turns.push(turn);
        current.set(parent, { id: message.id, turn });
        if (parent === MAIN && running.size > 0) answeredBackground = true;
      }
      if (typeof message.stop_reason === "string" && STOP_REASONS.has(message.stop_reason as StopReason)) turn.stopReason = message.stop_reason as StopReason;
      const usage = usageOf(message.usage);
      if (usage) turn.usage = usage;
      for (const block of Array.isArray(message.content) ? (message.content as Json[]) : []) {
        if (block?.type === "text" && typeof block.text === "string") turn.blocks.push({ type: "text", text: block.text });
        else if (block?.type === "thinking" && typeof block.thinking === "string") turn.blocks.push({ type: "thinking", thinking: block.thinking });
        else if (block?.type === "tool_use" && typeof block.name === "string") {
          turn.blocks.push({ type: "tool_use", id: String(block.id), name: block.name, input: (block.input ?? {}) as Record<string, unknown> });
          if ((block.name === "Agent" || block.name === "Task") && typeof block.id === "string") {
            const input = (block.input ?? {}) as Json;
            if (parent === MAIN && input.run_in_background === undefined) defaultDispatches.add(block.id);
            const sub: RecordedAgent = {
              id: block.id,
              ...(typeof input.subagent_type === "string" ? { type: input.subagent_type } : {}),
              ...(typeof input.prompt === "string" ? { prompt: input.prompt } : {}),
              turns: agents.get(block.id)?.turns ?? [],
            };
            if (!agents.has(block.id)) subagents.push(sub);
            else subagents[subagents.findIndex((s) => s.id === block.id)] = sub;
            agents.set(block.id, sub);
          }
        }
      }
    } else if (e.type === "user" && Array.isArray(asRecord(e.message).content)) {
      for (const block of asArray(asRecord(e.message).content).map(asRecord)) {
        if (block?.type === "tool_result" && typeof block.tool_use_id === "string") {
          results.set(block.tool_use_id, { content: contentText(block.content), isError: block.is_error === true });
          if (defaultDispatches.has(block.tool_use_id) && (launchedInBackground(e.tool_use_result) || LAUNCH_NOTICE.test(contentText(block.content)))) running.add(block.tool_use_id);
          // claude ≥ 2.1.3xx frames a subagent's answer in its call's result; the structured copy has the words alone.
          const words = handBackText(e.tool_use_result);
          if (words !== undefined) handBacks.set(block.tool_use_id, words);
        }
      }
    }
  }
  if (!sawAssistant) {
    throw new TranscriptError("TRANSCRIPT_UNREADABLE", "the recording holds no assistant messages, so there is nothing to replay", {
      detail: "  pass a stream-json transcript (`claude -p … --output-format stream-json --verbose`) or a Claude Code session log",
    });
  }
  // stream-json does not print a subagent's closing message: its text is the Agent call's result.
  for (const sub of subagents) {
    const last = sub.turns[sub.turns.length - 1];
    const endsWithCall = last === undefined || last.blocks.some((b) => b.type === "tool_use");
    const answer = results.get(sub.id);
    if (endsWithCall && answer && !answer.isError) sub.turns.push({ blocks: [{ type: "text", text: handBacks.get(sub.id) ?? withoutTrailer(answer.content) }], stopReason: "end_turn" });
  }
  return { ...(cwd !== undefined ? { cwd } : {}), ...(prompt !== undefined ? { prompt } : {}), main, subagents, results, streamJson: text, answeredBackground };
}
