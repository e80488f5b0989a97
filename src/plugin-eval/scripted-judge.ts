/**
 * The scripted judge: how the mock model answers an llm grader's judge call, from the case's
 * script sidecar. The same rules answer proctor's own grading and a `claude plugin eval` run
 * against `proctor mock serve`, so both score a case alike.
 */
import { ConfigError } from "../errors/proctor-error.js";
import type { BaselineGrader, Grader, LlmGrader } from "./types.js";

/** A grader's scripted verdict: fixed, or PASS when a regex matches the output the judge is shown. */
export type JudgeRule = "PASS" | "FAIL" | { readonly pass_if: string; readonly flags?: string };

/** Grader name → its rule. */
export type JudgeRules = Readonly<Record<string, JudgeRule>>;

const OUTPUT = /Agent output \([^\n]*\):\n([\s\S]*?)\s*Respond with exactly one word: PASS or FAIL\.\s*$/;
const CRITERION = /Criterion:\n([\s\S]*?)\n\s*\n\s*\nAgent output \(/;
/** A baseline grader's prompt: the criterion, then the NEW trajectory the rule reads. */
const BASELINE_CRITERION = /Criterion:\n([\s\S]*?)\n\s*\n\s*\nBASELINE trajectory:\n/;
const NEW_TRAJECTORY = /\n\n\nNEW trajectory:\n([\s\S]*?)\n\n\nDoes the NEW trajectory satisfy the criterion at least as well as the BASELINE\?/;
const BASELINE_OPENING = "You are comparing a NEW coding-agent trajectory against a BASELINE.";

/** Is this request text an llm grader's judge prompt? */
export function isJudgePrompt(text: string): boolean {
  return (text.startsWith("You are grading the output of a coding agent against a criterion.") || text.startsWith(BASELINE_OPENING)) && text.includes("Respond with exactly one word: PASS or FAIL.");
}

/** The criterion and the output a judge prompt carries. */
export function parseJudgePrompt(text: string): { criterion: string; output: string } | undefined {
  if (text.startsWith(BASELINE_OPENING)) {
    const c = BASELINE_CRITERION.exec(text);
    const o = NEW_TRAJECTORY.exec(text);
    return c && o ? { criterion: (c[1] ?? "").trim(), output: o[1] ?? "" } : undefined;
  }
  const c = CRITERION.exec(text);
  const o = OUTPUT.exec(text);
  return c && o ? { criterion: (c[1] ?? "").trim(), output: o[1] ?? "" } : undefined;
}

/** Check a rule's shape (a bad regex is refused when the script is read, not when the judge is asked). */
export function checkJudgeRules(rules: unknown, where: string): JudgeRules {
  if (rules === undefined) return {};
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) throw new ConfigError("SCRIPT_INVALID", `${where}: judge must be an object { "<llm grader name>": "PASS" | "FAIL" | { pass_if: "<regex>" } }`);
  for (const [name, rule] of Object.entries(rules)) {
    if (rule === "PASS" || rule === "FAIL") continue;
    const r = rule as { pass_if?: unknown; flags?: unknown };
    if (typeof r !== "object" || r === null || typeof r.pass_if !== "string") throw new ConfigError("SCRIPT_INVALID", `${where}: judge.${name} must be "PASS", "FAIL" or { pass_if: "<regex>", flags? }`);
    try {
      new RegExp(r.pass_if, typeof r.flags === "string" ? r.flags : "");
    } catch (error) {
      throw new ConfigError("SCRIPT_INVALID", `${where}: judge.${name}.pass_if is not a regular expression: ${(error as Error).message}`);
    }
  }
  return rules as JudgeRules;
}

/** The verdict a rule gives an output. */
export function applyRule(rule: JudgeRule, output: string): "PASS" | "FAIL" {
  if (typeof rule === "string") return rule;
  return new RegExp(rule.pass_if, rule.flags ?? "").test(output) ? "PASS" : "FAIL";
}

/**
 * Answer a judge prompt from the rules of the cases' llm graders: the grader whose criteria the
 * prompt carries. No rule, or a prompt no grader owns: FAIL (a judge that was not scripted passes nothing).
 */
export function scriptedJudgeAnswer(prompt: string, graders: readonly { readonly grader: Grader; readonly rules: JudgeRules }[]): "PASS" | "FAIL" {
  const parsed = parseJudgePrompt(prompt);
  if (!parsed) return "FAIL";
  for (const { grader, rules } of graders) {
    if ((grader.type !== "llm" && grader.type !== "baseline") || (grader as LlmGrader | BaselineGrader).criteria.trim() !== parsed.criterion) continue;
    const rule = rules[grader.name];
    if (rule !== undefined) return applyRule(rule, parsed.output);
  }
  return "FAIL";
}
