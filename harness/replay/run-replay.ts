/**
 * `runReplay`: one recorded run replayed on the real claude binary with today's plugins, hooks,
 * settings, skills and policies. The mock says exactly what the model said in the recording; the
 * Trace says what the world answered now, and `trace.replay.divergences` where that differs.
 */
import { resolve } from "node:path";
import { diffReplay } from "../../src/trace/replay-diff.js";
import { parseTranscript } from "../../src/trace/transcript.js";
import { readRecording } from "../../mock-model/replay/recording.js";
import { REPLAY_EXHAUSTED, scriptFromRecording } from "../../mock-model/replay/script-from-transcript.js";
import { runHarness, type HarnessResult } from "../claude/run-harness.js";
import type { HarnessSpec } from "../claude/spec.js";

/** What to replay, and how the run is set up (everything runHarness takes but the script). */
export interface ReplaySpec extends Omit<HarnessSpec, "script" | "prompt"> {
  /** The recording: a path (stream-json from `claude -p`, a session log or its folder) or its text. */
  readonly recording: string;
  /** The prompt to start the run with. @default the recording's own (session logs), else "Replay the recorded run." */
  readonly prompt?: string;
  /** Compare tool results by status only, not text. @default false */
  readonly ignoreResultText?: boolean;
  /** Stop at the first tool result that differs; every agent then ends its turn. @default false */
  readonly stopAtFirstDivergence?: boolean;
}

/** Used when the recording does not hold its prompt (`claude -p` stream-json does not print it). */
export const DEFAULT_REPLAY_PROMPT = "Replay the recorded run.";

/** Replay a recording on the real binary; the Trace carries `replay.divergences`. */
export async function runReplay(spec: ReplaySpec): Promise<HarnessResult> {
  const { recording: source, ignoreResultText, stopAtFirstDivergence, prompt, ...rest } = spec;
  const isText = source.includes("\n") || source.trimStart().startsWith("{");
  // A recording path is relative to the spec's cwd, like its fixture and plugins.
  const recording = readRecording(isText ? source : resolve(spec.cwd ?? process.cwd(), source));
  let stoppedEarly = false;
  const script = scriptFromRecording(recording, {
    ...(ignoreResultText !== undefined ? { ignoreResultText } : {}),
    ...(stopAtFirstDivergence !== undefined ? { stopAtFirstDivergence } : {}),
    onDivergence: () => {
      if (stopAtFirstDivergence) stoppedEarly = true;
    },
  });
  const result = await runHarness({ ...rest, prompt: prompt ?? recording.prompt ?? DEFAULT_REPLAY_PROMPT, script });
  const turnOf = new Map<string, number>();
  for (const agent of [recording.main, ...recording.subagents]) {
    agent.turns.forEach((turn, i) => {
      for (const block of turn.blocks) if (block.type === "tool_use" && block.id) turnOf.set(block.id, i + 1);
    });
  }
  const recorded = parseTranscript(recording.streamJson);
  const all = diffReplay(recorded, result.trace, { ...(ignoreResultText !== undefined ? { ignoreResultText } : {}), turnOf, exhaustedNote: REPLAY_EXHAUSTED });
  // Stopped at a divergence, the run naturally skips what came after: report what differed up to the stop.
  const divergences = stoppedEarly ? all.filter((d) => d.kind === "result" || d.kind === "status" || d.kind === "hook") : all;
  return { ...result, trace: { ...result.trace, replay: { recording: isText ? "(text)" : source, divergences, stoppedEarly } } };
}
