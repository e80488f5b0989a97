/** `hookSaid`: what a hook told Claude Code — its decision reason, the context it added, its output. */
import type { HookEvent, Trace } from "../trace/types.js";
import { interpretHookOutput } from "../hook/interpret.js";
import { defineTraceCheck, type Check } from "./check.js";
import { quote } from "./describe.js";
import { textMatches } from "./text.js";
import { InvalidCheckError, requireName, requireText } from "./validate.js";

/** The parts of a hook's answer `hookSaid` can look in. */
export type HookPart = "reason" | "context" | "message" | "output";

/** Every part, in the order a message lists them. */
export const HOOK_PARTS: readonly HookPart[] = ["reason", "context", "message", "output"];

/** Options of `hookSaid`. */
export interface HookSaidOptions {
  /**
   * Where to look: `reason` — the decision reason (`permissionDecisionReason`, a block's `reason`,
   * `stopReason`, or stderr on exit 2); `context` — `hookSpecificOutput.additionalContext`, what the
   * hook added for the model; `message` — `systemMessage`, shown to the user; `output` — everything
   * the hook printed (stdout and stderr). `"any"` looks in all of them.
   * @default "any"
   */
  readonly in?: HookPart | "any" | undefined;
}

/** The parts of one hook's answer, read as Claude Code reads them (JSON on exit 0, stderr on exit 2). */
export function hookParts(hook: HookEvent): Partial<Record<HookPart, string>> {
  const stdout = hook.stdout ?? "";
  const stderr = hook.stderr ?? "";
  const verdict = interpretHookOutput(hook.exitCode, stdout, stderr);
  const specific = verdict.json?.hookSpecificOutput;
  const context = typeof specific === "object" && specific !== null ? (specific as Record<string, unknown>).additionalContext : undefined;
  const message = verdict.json?.systemMessage;
  const output = hook.output || stdout + stderr;
  return {
    ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
    ...(typeof context === "string" ? { context } : {}),
    ...(typeof message === "string" ? { message } : {}),
    ...(output !== "" ? { output } : {}),
  };
}

function show(matcher: string | RegExp): string {
  return typeof matcher === "string" ? JSON.stringify(matcher) : String(matcher);
}

/**
 * A hook for `event` (`"PreToolUse"`, `"Stop"`, or an exact hook name like `"PreToolUse:Bash"`)
 * said something matching `matcher` — e.g. `hookSaid("PreToolUse:Bash", /force-push/, { in: "reason" })`
 * for the reason a guard gave, or `{ in: "context" }` for what a hook added to the model's context.
 * A hook that never answered (the run ended under it) said nothing.
 */
export function hookSaid(event: string, matcher: string | RegExp, options: HookSaidOptions = {}): Check<Trace> {
  requireName("hookSaid", "event", event);
  requireText("hookSaid", "matcher", matcher);
  if (typeof options !== "object" || options === null) throw new InvalidCheckError("hookSaid", "options", 'must be an object like { in: "reason" }', options);
  const where = options.in ?? "any";
  if (where !== "any" && !HOOK_PARTS.includes(where)) throw new InvalidCheckError("hookSaid", "options.in", `must be "any" or one of ${HOOK_PARTS.join(", ")}`, where);
  const parts = where === "any" ? HOOK_PARTS : [where];
  const inWhat = where === "any" ? "" : ` in its ${where}`;
  return defineTraceCheck("hookSaid", where === "any" ? { event, matcher } : { event, matcher, in: where }, (trace) => {
    const hooks = trace.hooks.map((hook, index) => ({ hook, index })).filter(({ hook }) => hook.event === event || hook.name === event);
    const wanted = `a ${event} hook to say ${show(matcher)}${inWhat}`;
    if (hooks.length === 0) {
      const fired = [...new Set(trace.hooks.map((h) => h.name))];
      return {
        pass: false,
        message:
          trace.source.hookRecord === "partial"
            ? `expected ${wanted}; no ${event} hook run is recorded (${fired.length ? `hooks recorded: ${fired.join(", ")}` : "none is"}) — this trace was read from a Claude Code session log, which keeps a hook only when it printed output, failed, blocked or was cancelled; read the run's stream-json (--include-hook-events) to see every hook`
            : `expected ${wanted}; no ${event} hook fired (${fired.length ? `hooks that fired: ${fired.join(", ")}` : "no hooks fired"}; is the hook registered in the settings or plugin the run loaded, and does its matcher match?)`,
        expected: { event, matcher },
        actual: fired,
      };
    }
    for (const { hook, index } of hooks) {
      const said = hookParts(hook);
      const part = parts.find((p) => said[p] !== undefined && textMatches(said[p] as string, matcher));
      if (part) return { pass: true, message: `hook ${index + 1} (${hook.name}) said ${show(matcher)} in its ${part}: ${quote(said[part] as string)}`, actual: said[part] };
    }
    const lines = hooks.slice(0, 8).map(({ hook, index }) => {
      const said = hookParts(hook);
      const shown = parts.filter((p) => said[p] !== undefined).map((p) => `${p} ${quote(said[p] as string, 120)}`);
      const what = hook.exitCode === null ? "never answered (the run ended under it)" : shown.length ? shown.join("; ") : `said nothing${inWhat}`;
      return `    hook ${index + 1} (${hook.name}, exit ${hook.exitCode ?? "none"}): ${what}`;
    });
    return {
      pass: false,
      message: `expected ${wanted}; none of its ${hooks.length} run(s) did:\n${lines.join("\n")}${hooks.length > 8 ? `\n    … and ${hooks.length - 8} more` : ""}`,
      expected: { event, matcher },
      actual: hooks.map(({ hook }) => hookParts(hook)),
    };
  }, { label: `hookSaid(${event}, ${show(matcher)}${where === "any" ? "" : `, in: ${where}`})` });
}
