/**
 * `withinAllowedTools`: a slash command's or skill's `allowed-tools` frontmatter as a contract.
 * While the command or skill was active, every call its agent made is allowed by those rules, read
 * as Claude Code reads permission rules (`Bash(git add:*)` allows `git add …`, not `git push`).
 *
 * Active: from the `Skill` call that invoked it to that agent's next `Skill` call or the end of the
 * run (as skill contracts scope calls; that next `Skill` call is judged too, so a command cannot
 * leave its contract by handing off to another skill it does not allow), or — a command given as
 * the prompt (`/commit`) — the main agent's calls from the start. Calls inside a subagent it
 * dispatched are the subagent's; the `Agent` call itself is judged. The prompt is known from the captured model requests (runHarness);
 * a trace without them cannot show a prompt command ran, and the check says so.
 */
import { readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { ToolCall, Trace } from "../trace/types.js";
import { defineTraceCheck, type Check, type Verdict } from "../checks/check.js";
import { absenceUnprovable, describeCall } from "../checks/describe.js";
import { answersTo } from "../checks/names.js";
import { parsePermissionRule, rulesAllowCall } from "../checks/permission-rules.js";
import { unknownNameVerdict } from "../checks/tools.js";
import { InvalidCheckError, requireName, requireNames } from "../checks/validate.js";
import { at } from "../util/narrow.js";
import { readAllowedTools, readFrontmatter } from "./frontmatter.js";

/** What a command's or skill's file declares: its name, what it is, its allowed-tools rules. */
export interface AllowedToolsDeclaration {
  /** The file read (a command's .md or a skill's SKILL.md). */
  readonly path: string;
  /** The name it is invoked by: the command file's name without `.md`, or the skill's `name` (else its folder's). */
  readonly name: string;
  readonly type: "command" | "skill";
  readonly allowed: readonly string[];
}

function refuse(commandOrSkill: string, problem: string, hint: string): never {
  throw new InvalidCheckError("INVALID_CHECK", `withinAllowedTools(${JSON.stringify(commandOrSkill)}): ${problem}`, { input: commandOrSkill, hint, kind: "withinAllowedTools" });
}

/** Read the declaration from a command's .md file, a SKILL.md, or a skill's folder. Throws INVALID_CHECK on anything unreadable. */
export function readAllowedToolsDeclaration(commandOrSkill: string): AllowedToolsDeclaration {
  requireName("withinAllowedTools", "commandOrSkill", commandOrSkill);
  const hint = "pass the path of a slash command's .md file (e.g. .claude/commands/commit.md) or of a skill's folder (the one holding SKILL.md)";
  let file = resolve(commandOrSkill);
  try {
    if (statSync(file).isDirectory()) file = join(file, "SKILL.md");
  } catch (error) {
    refuse(commandOrSkill, `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, hint);
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    refuse(commandOrSkill, `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, hint);
  }
  const type = basename(file) === "SKILL.md" ? "skill" : "command";
  const fallback = type === "skill" ? basename(dirname(file)) : basename(file).replace(/\.md$/i, "");
  const declare = "declare the tools it may use in its frontmatter, e.g. ---\\nallowed-tools: Read, Bash(git add:*)\\n---";
  const { fields, problem } = readFrontmatter(text);
  if (problem) refuse(commandOrSkill, `${file}: ${problem}`, declare);
  if (!fields) refuse(commandOrSkill, `${file} has no frontmatter, so it declares no allowed-tools to hold the ${type} to`, declare);
  const read = readAllowedTools(fields);
  if (read.problem) refuse(commandOrSkill, `${file}: ${read.problem}`, declare);
  if (!read.rules) refuse(commandOrSkill, `${file} declares no allowed-tools, so there is nothing to hold the ${type} to`, declare);
  if (read.rules.length === 0) refuse(commandOrSkill, `${file}: allowed-tools is empty`, declare);
  const name = type === "skill" && typeof fields.name === "string" && fields.name.trim() ? fields.name.trim() : fallback;
  return { path: commandOrSkill, name, type, allowed: read.rules };
}

interface IndexedCall {
  readonly call: ToolCall;
  readonly index: number;
}

/**
 * The calls of `agent` from `start` up to its next Skill call, which is included: handing off to
 * another skill is a call the command made (it must allow `Skill`), and what follows is that skill's.
 */
function activeFrom(trace: Trace, start: number, agent: string): IndexedCall[] {
  const out: IndexedCall[] = [];
  for (let i = start; i < trace.toolCalls.length; i++) {
    const call = at(trace.toolCalls, i);
    if (call.agent !== agent) continue;
    out.push({ call, index: i });
    if (call.name === "Skill") break;
  }
  return out;
}

/** `<command-name>/x</command-name>` in the first main request: the run's prompt was the command. */
function promptCommand(trace: Trace): string | undefined {
  const first = trace.modelRequests?.find((r) => r.agent === "main");
  return first ? /<command-name>\/?([^<\s]+)<\/command-name>/.exec(first.messages)?.[1] : undefined;
}

/** The calls made while `name` was active, with how it was invoked; a verdict when that cannot be shown. */
function scopedCalls(trace: Trace, decl: AllowedToolsDeclaration): { calls: IndexedCall[]; how: string } | Verdict {
  const what = decl.type === "command" ? `/${decl.name}` : `skill ${decl.name}`;
  const seen = new Set<number>();
  const calls: IndexedCall[] = [];
  const hows: string[] = [];
  const add = (list: IndexedCall[]) => {
    for (const c of list) {
      if (seen.has(c.index)) continue;
      seen.add(c.index);
      calls.push(c);
    }
  };
  const prompt = promptCommand(trace);
  if (prompt !== undefined && answersTo(decl.name, prompt)) {
    add(activeFrom(trace, 0, "main"));
    hows.push(`the prompt (/${prompt})`);
  }
  const invocations = trace.skills.filter((s) => answersTo(decl.name, s.name));
  for (const s of invocations) add(activeFrom(trace, s.callIndex + 1, s.agent));
  if (invocations.length) hows.push(`${invocations.length} Skill call(s)`);
  if (hows.length > 0) return { calls: calls.sort((a, b) => a.index - b.index), how: hows.join(" and ") };
  const ran = trace.skills.map((s) => s.name);
  const others = `${ran.length ? `skills/commands the model invoked: ${ran.join(", ")}` : "the model invoked no skill or command"}`;
  if (!trace.modelRequests?.some((r) => r.agent === "main")) {
    return {
      pass: false,
      message: `cannot tell whether ${what} ran: the model did not invoke it (${others}), and this trace has no recorded model requests to show the prompt (only the mock-model harness, runHarness, captures them)`,
      expected: decl.name,
      inconclusive: true,
    };
  }
  return { pass: false, message: `${what} never ran, so what it did while active cannot be checked: the prompt was ${prompt ? `/${prompt}` : "not a slash command"}, and ${others}`, expected: decl.name, actual: ran };
}

/** The check over an already-read declaration (what `checkFromJSON` rebuilds). */
export function allowedToolsCheck(decl: AllowedToolsDeclaration): Check<Trace> {
  requireName("withinAllowedTools", "path", decl.path);
  requireName("withinAllowedTools", "name", decl.name);
  if (decl.type !== "command" && decl.type !== "skill") throw new InvalidCheckError("withinAllowedTools", "type", 'must be "command" or "skill"', decl.type);
  requireNames("withinAllowedTools", "allowed", decl.allowed);
  const rules = decl.allowed.map(parsePermissionRule);
  const what = decl.type === "command" ? `/${decl.name}` : `skill ${decl.name}`;
  const listed = decl.allowed.join(", ");
  return defineTraceCheck(
    "withinAllowedTools",
    { path: decl.path, name: decl.name, type: decl.type, allowed: [...decl.allowed] },
    (trace) => {
      const scope = scopedCalls(trace, decl);
      if (!("calls" in scope)) return scope;
      const unknown = unknownNameVerdict("withinAllowedTools", trace, rules.map((r) => r.tool).filter((t) => !t.startsWith("mcp__")));
      if (unknown) return unknown;
      const outside = scope.calls.filter(({ call }) => !rulesAllowCall(rules, call, trace.source.cwd));
      if (outside.length > 0) {
        return {
          pass: false,
          message:
            `while ${what} was active (invoked by ${scope.how}), ${outside.length} of ${scope.calls.length} call(s) went outside its allowed-tools (${listed}):\n` +
            `${outside.slice(0, 8).map(({ call, index }) => `    ${describeCall(call, index)}`).join("\n")}${outside.length > 8 ? `\n    … and ${outside.length - 8} more` : ""}\n` +
            `  add a rule to allowed-tools in ${decl.path} if it is intended, or find why the ${decl.type} reached for it`,
          expected: decl.allowed,
          actual: outside.map(({ call }) => (typeof call.input.command === "string" ? `${call.name}(${call.input.command})` : call.name)),
          callIndex: at(outside, 0).index,
        };
      }
      const unprovable = absenceUnprovable(trace);
      if (unprovable) return { pass: false, message: `cannot confirm ${what} stayed inside its allowed-tools: ${unprovable}` };
      return { pass: true, message: `while ${what} was active (invoked by ${scope.how}), all ${scope.calls.length} call(s) were allowed by ${listed}` };
    },
    { label: `withinAllowedTools(${decl.path})` },
  );
}

/**
 * While the slash command or skill at `commandOrSkill` (a command's .md file, a SKILL.md, or a
 * skill's folder) was active, every call its agent made is allowed by its frontmatter's
 * `allowed-tools` — a comma string or a YAML list, each entry a Claude Code permission rule. A
 * denied call counts: the agent reached for it. The file is read when the check is built; a
 * missing file or one without `allowed-tools` throws INVALID_CHECK.
 */
export function withinAllowedTools(commandOrSkill: string): Check<Trace> {
  return allowedToolsCheck(readAllowedToolsDeclaration(commandOrSkill));
}
