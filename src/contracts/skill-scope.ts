/**
 * Checks scoped to a skill's activity: from the `Skill` call that activated it to the next skill
 * activation by the same agent, or the end of the run. Only that agent's own calls count; a
 * subagent it dispatched is judged by its own contract.
 */
import type { ToolCall, Trace } from "../trace/types.js";
import { defineTraceCheck, type Check } from "../checks/check.js";
import { absenceUnprovable, describeCall } from "../checks/describe.js";
import { toolNameMatches } from "../checks/tools.js";
import { requireName, requireNames } from "../checks/validate.js";
import { dialectOf, requirePurity } from "../checks/safety.js";
import { baseToolOf, restrictionOf, shellCommandOf } from "../effects/dialect.js";
import type { PurityLevel } from "../effects/effects.js";
import { decideCallPurity, decidedNote, purityScope } from "../checks/observed-purity.js";
import { commandMatchesPattern, simpleCommands } from "../effects/bash/simple-commands.js";
import { at } from "../util/narrow.js";

interface IndexedCall {
  readonly call: ToolCall;
  readonly index: number;
}

/** A bare `name` also matches `plugin:name`, as `skill()` does. */
function skillMatches(id: string, name: string): boolean {
  return name === id || (!id.includes(":") && name.endsWith(`:${id}`));
}

/** The calls made while each activation of `skill` was active; `undefined` when it never ran. */
export function callsDuringSkill(trace: Trace, skill: string): IndexedCall[] | undefined {
  const runs = trace.skills.filter((s) => skillMatches(skill, s.name));
  if (runs.length === 0) return undefined;
  const out: IndexedCall[] = [];
  for (const run of runs) {
    for (let i = run.callIndex + 1; i < trace.toolCalls.length; i++) {
      const call = at(trace.toolCalls, i);
      if (call.agent !== run.agent) continue;
      if (call.name === "Skill") break;
      out.push({ call, index: i });
    }
  }
  return out;
}

function neverRan(trace: Trace, skill: string) {
  const seen = trace.skills.map((s) => s.name);
  return {
    pass: false,
    message: `skill ${skill} never ran, so what it did while active cannot be checked (${seen.length ? `skills that ran: ${seen.join(", ")}` : "no skill ran"})`,
    expected: skill,
    actual: seen,
  };
}

/**
 * Why a call is outside the declared tools, or `undefined` when it is inside. A shell call must
 * also match a declared restriction (`Bash(git:*)`, `Bash(git *)`) in every simple command it runs.
 */
export function outsideDeclaredTools(call: ToolCall, allowed: readonly string[]): string | undefined {
  const grants = allowed.filter((d) => toolNameMatches(baseToolOf(d), call.name));
  if (grants.length === 0) return `${call.name} is not among the declared tools`;
  const patterns = grants.map(restrictionOf);
  if (!patterns.every((p) => p !== undefined)) return undefined;
  const command = shellCommandOf(call.input);
  if (command === undefined) return `${call.name} is declared only as ${grants.join(", ")}, and the call has no command to match`;
  const parts = simpleCommands(command);
  if (parts === undefined) return `the command cannot be split into simple commands to match against ${grants.join(", ")} (it uses substitution, control flow or background jobs)`;
  const unmatched = parts.find((part) => !patterns.some((p) => commandMatchesPattern(part, p)));
  return unmatched === undefined ? undefined : `\`${unmatched}\` matches none of ${grants.join(", ")}`;
}

/** While `skill` was active, its agent used only the `allowed` tools (restrictions on Bash included). */
export function skillTools(skill: string, allowed: readonly string[]): Check<Trace> {
  requireName("skillTools", "skill", skill);
  requireNames("skillTools", "allowed", allowed);
  return defineTraceCheck("skillTools", { skill, allowed: [...allowed] }, (trace) => {
    const calls = callsDuringSkill(trace, skill);
    if (!calls) return neverRan(trace, skill);
    const outside = calls.flatMap(({ call, index }) => {
      const why = outsideDeclaredTools(call, allowed);
      return why === undefined ? [] : [{ call, index, why }];
    });
    if (outside.length > 0) {
      const lines = outside.slice(0, 8).map(({ call, index, why }) => `    ${describeCall(call, index)}\n      ${why}`);
      return {
        pass: false,
        message:
          `while skill ${skill} was active, ${outside.length} call(s) went outside its allowed-tools (${allowed.join(", ")}):\n${lines.join("\n")}\n` +
          "  add the tool to allowed-tools if it is intended, or find why the skill reached for it",
        expected: allowed,
        actual: outside.map(({ call }) => call.name),
        callIndex: at(outside, 0).index,
      };
    }
    const unprovable = absenceUnprovable(trace);
    if (unprovable) return { pass: false, message: `cannot confirm skill ${skill} stayed inside its tools: ${unprovable}` };
    return { pass: true, message: `skill ${skill} made ${calls.length} call(s) while active, all within ${allowed.join(", ")}` };
  });
}

/** While `skill` was active, every call of its agent passed the purity floor `level`, decided per call like the runtime gate. */
export function skillPurity(skill: string, level: PurityLevel): Check<Trace> {
  requireName("skillPurity", "skill", skill);
  requirePurity("skillPurity", "level", level);
  return defineTraceCheck("skillPurity", { skill, level }, (trace) => {
    const calls = callsDuringSkill(trace, skill);
    if (!calls) return neverRan(trace, skill);
    const dialect = dialectOf(trace);
    const ps = purityScope(trace);
    const decided = calls.map(({ call }) => decideCallPurity(level, trace, call, dialect, ps));
    const note = decidedNote(ps, decided, calls.filter(({ call }) => dialect.shellTools.includes(call.name)).length);
    const violations = calls.flatMap(({ call, index }, i) => {
      const d = at(decided, i);
      return d.allow ? [] : [{ call, index, message: d.message }];
    });
    if (violations.length > 0) {
      const lines = violations.slice(0, 8).map(({ call, index, message }) => `    ${describeCall(call, index)}\n      ${message}`);
      return {
        pass: false,
        message: `skill ${skill} is declared ${level}, but ${violations.length} call(s) while it was active broke that floor:\n${lines.join("\n")}\n  (${note})`,
        expected: level,
        actual: violations.map(({ call }) => call.name),
        callIndex: at(violations, 0).index,
      };
    }
    const unprovable = absenceUnprovable(trace);
    if (unprovable) return { pass: false, message: `cannot confirm skill ${skill} stayed ${level}: ${unprovable} (${note})` };
    return { pass: true, message: `skill ${skill} stayed ${level} across ${calls.length} call(s) (${note})` };
  });
}

/** A skill contract that cannot be checked as written: always fails, saying what is wrong. */
export function skillContractProblem(skill: string, problem: string): Check<Trace> {
  requireName("skillContract", "skill", skill);
  requireName("skillContract", "problem", problem);
  return defineTraceCheck("skillContract", { skill, problem }, () => ({ pass: false, message: `skill ${skill}: ${problem}` }), {
    label: `skillContract(${skill})`,
  });
}
