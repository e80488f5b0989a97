/**
 * `runReplay`: one recorded run replayed on the real claude binary with today's plugins, hooks,
 * settings, skills and policies. The mock says exactly what the model said in the recording; the
 * Trace says what the world answered now, and `trace.replay.divergences` where that differs.
 */
import { resolve } from "node:path";
import { diffReplay } from "../../src/trace/replay-diff.js";
import { parseTranscript } from "../../src/trace/transcript.js";
import { readRecording } from "../../mock-model/replay/recording.js";
import { REPLAY_EXHAUSTED, scriptFromRecording, type LiveDivergence } from "../../mock-model/replay/script-from-transcript.js";
import type { Divergence, PreflightWarning, VersionDrift } from "../../src/trace/types.js";
import { comparePreflight, initFacts } from "../../src/trace/replay-preflight.js";
import { resolveClaudeBinary } from "../claude/binary.js";
import { claudeVersionOf } from "../claude/versions.js";
import { runHarness, type HarnessResult } from "../claude/run-harness.js";
import type { ReplayRunSpec } from "../../src/eval/spec-types.js";
import type { MockModel } from "../../mock-model/server/start.js";

/** What to replay, and how the run is set up (everything runHarness takes but the script). */
export interface ReplaySpec extends ReplayRunSpec {
  /** The mock server to use; a shared one is started on first use. */
  readonly mock?: MockModel;
  /**
   * Called as soon as a difference of set-up is known: a claude version other than the
   * recording's before the run starts, recorded tools the run does not offer before the mock
   * answers its first request. All of them, init-line differences included, end up in
   * `trace.replay.preflight`.
   */
  readonly onPreflight?: (warning: PreflightWarning) => void;
}

/** Used when the recording does not hold its prompt (`claude -p` stream-json does not print it). */
export const DEFAULT_REPLAY_PROMPT = "Replay the recorded run.";

/** Replay a recording on the real binary; the Trace carries `replay.divergences`. */
export async function runReplay(spec: ReplaySpec): Promise<HarnessResult> {
  const { recording: source, ignoreResultText, stopAtFirstDivergence, prompt, allowOutside, onPreflight, ...rest } = spec;
  const isText = source.includes("\n") || source.trimStart().startsWith("{");
  // A recording path is relative to the spec's cwd, like its fixture and plugins.
  const recording = readRecording(isText ? source : resolve(spec.cwd ?? process.cwd(), source));
  const recorded = parseTranscript(recording.streamJson);
  // A recording from another claude version is compared through the known rewordings between versions.
  const recordedVersion = recorded.source.agentVersion;
  const binaryVersion = await claudeVersionOf(resolveClaudeBinary({ claudePath: spec.claudePath, cwd: spec.cwd ?? process.cwd() })).catch(() => undefined);
  const acrossVersions = recordedVersion === undefined || binaryVersion === undefined || recordedVersion !== binaryVersion;
  const recordedInit = initFacts(recording.streamJson);
  const warned = new Set<string>();
  const warn = (w: PreflightWarning) => {
    if (warned.has(w.message)) return;
    warned.add(w.message);
    onPreflight?.(w);
  };
  if (recordedInit && binaryVersion) for (const w of comparePreflight(recordedInit, { ...recordedInit, version: binaryVersion })) warn(w);
  let stoppedEarly = false;
  const live: LiveDivergence[] = [];
  const refused: Divergence[] = [];
  const served = new Map<string, number>();
  const script = scriptFromRecording(recording, {
    ...(ignoreResultText !== undefined ? { ignoreResultText } : {}),
    ...(stopAtFirstDivergence !== undefined ? { stopAtFirstDivergence } : {}),
    acrossVersions,
    onDivergence: (d) => {
      live.push(d);
      if (stopAtFirstDivergence) stoppedEarly = true;
    },
    onTurn: (agent, turn) => served.set(agent, Math.max(served.get(agent) ?? 0, turn)),
    ...(allowOutside ? { allowOutside } : {}),
    onRefused: (r) =>
      refused.push({ kind: "refused", agent: r.agent, turn: r.turn, callId: r.callId, tool: r.tool, recorded: `${r.field}: ${r.path}`, now: "not called", message: `${r.tool} (${r.callId}) was not replayed: its ${r.field} ${r.path} is outside the replay's work dir (allow it with allowOutside)` }),
    onFirstRequest: (offered) => {
      const used = [...new Set(recorded.toolCalls.map((c) => c.name))];
      const lacking = used.filter((name) => !offered.includes(name));
      if (lacking.length) warn({ kind: "tools", names: lacking, message: `the recording called tools the replay does not offer: ${lacking.join(", ")} (those calls will fail; a plugin, MCP server or --allowed-tools setting is missing)` });
    },
  });
  // Recorded turns a replay never reached are its divergences (call, turn), judged by checks: not a health problem.
  const health = { "script-consumed": "a replay reports the recorded turns it did not reach as divergences", ...rest.health };
  const result = await runHarness({ ...rest, health, prompt: prompt ?? recording.prompt ?? DEFAULT_REPLAY_PROMPT, script });
  const turnOf = new Map<string, number>();
  for (const agent of [recording.main, ...recording.subagents]) {
    agent.turns.forEach((turn, i) => {
      for (const block of turn.blocks) if (block.type === "tool_use" && block.id) turnOf.set(block.id, i + 1);
    });
  }
  const nowInit = initFacts(result.stdout);
  const preflight = recordedInit && nowInit ? comparePreflight(recordedInit, nowInit) : [];
  for (const w of preflight) warn(w);
  const drift: VersionDrift[] = [];
  const all = diffReplay(recorded, result.trace, { ...(ignoreResultText !== undefined ? { ignoreResultText } : {}), turnOf, exhaustedNote: REPLAY_EXHAUSTED, onDrift: (d) => drift.push(d) });
  // A run that ended before an agent's last recorded turn answered differently (a Stop hook that
  // no longer blocks, a tool result that no longer makes the agent go on), whether or not a call
  // went missing with it. A subagent never dispatched is reported as such above.
  for (const agent of [recording.main, ...recording.subagents]) {
    const asked = served.get(agent.id) ?? 0;
    if (asked > agent.turns.length && agent !== recording.main) {
      // The main agent's extra turn shows in its replies (exhaustedNote); a subagent's only in the
      // Agent call's result, which is not compared.
      all.push({
        kind: "turn",
        agent: agent.id,
        turn: agent.turns.length + 1,
        recorded: "the recording ended",
        now: "the run asked for another turn",
        message: `subagent ${agent.type ?? agent.id} asked for a turn the recording does not have (a hook or tool made it go on)`,
      });
      continue;
    }
    if (asked >= agent.turns.length || (asked === 0 && agent !== recording.main)) continue;
    all.push({
      kind: "turn",
      agent: agent.id,
      turn: asked + 1,
      recorded: `${agent.turns.length} turns`,
      now: `${asked} turns`,
      message: `${agent === recording.main ? "the main agent" : `subagent ${agent.type ?? agent.id}`} ended after turn ${asked}; the recording went on to turn ${agent.turns.length}`,
    });
  }
  // Stopped at a divergence, the run naturally skips what came after: report what differed up to the stop.
  // (A run-level hook, such as a Stop hook answering the stop note, is after the stop too.)
  const upToStop = stoppedEarly ? all.filter((d) => (d.kind === "result" || d.kind === "status" || d.kind === "hook") && d.callId !== undefined) : all;
  // The run stopped because the mock saw a result differ: that is a divergence even when the
  // comparison of the two Traces does not show it, never a match.
  const refusedIds = new Set(refused.map((r) => r.callId));
  const divergences: Divergence[] = [
    ...refused,
    ...(stoppedEarly && upToStop.length === 0
      ? live.slice(0, 1).map((d) => ({ kind: "result" as const, agent: d.agent, turn: d.turn, callId: d.callId, recorded: d.recorded, now: d.now, message: `the result of ${d.callId} differed, and the replay stopped there` }))
      : upToStop
    ).filter((d) => !(d.kind === "call" && d.callId !== undefined && refusedIds.has(d.callId))),
  ];
  const nowVersion = result.trace.source.agentVersion ?? binaryVersion;
  const versions = { ...(recordedVersion ? { recorded: recordedVersion } : {}), ...(nowVersion ? { now: nowVersion } : {}) };
  return {
    ...result,
    trace: { ...result.trace, replay: { recording: isText ? "(text)" : source, divergences, stoppedEarly, ...(drift.length ? { drift } : {}), ...(Object.keys(versions).length ? { versions } : {}), ...(preflight.length ? { preflight } : {}) } },
  };
}
