/**
 * The built-in judge for `judged(rubric)`: one `claude -p` run with a fixed grading prompt and no
 * tools, answering a JSON verdict. It goes through the same claude binary as the agent (so the same
 * key, gateway and model settings), and runs against the mock model in tests like anything else.
 */
import { RunError, InvalidInputError } from "../../src/errors/proctor-error.js";
import type { JudgeFn, JudgeInput, JudgeVerdict } from "../../src/checks/judged.js";
import { runEval } from "../eval/run-eval.js";
import { requireObject } from "../../src/errors/arguments.js";
import type { SandboxSpec } from "../../src/eval/spec-types.js";

export interface ClaudeJudgeOptions {
  /** @default process.env.ANTHROPIC_API_KEY */
  readonly apiKey?: string;
  /** An API gateway, or the mock model's URL in tests. */
  readonly baseUrl?: string;
  readonly model?: string;
  /** Show the judge the run's tool calls as well as its output. @default false */
  readonly includeToolCalls?: boolean;
  /** Cost cap of one grading. @default 0.25 */
  readonly maxBudgetUsd?: number;
  /** @default 120000 */
  readonly timeoutMs?: number;
  readonly claudePath?: string;
  /**
   * The sandbox around the grading run (it has no tools; the sandbox keeps it that way): by default
   * proctor's jail, its one way out the API's host (`{ jail: true }`); `{ allowedDomains: [] }`
   * for Claude Code's own sandbox instead; `{ off: "why" }` for none.
   * @default { jail: true }
   */
  readonly sandbox?: SandboxSpec;
}

/** The grading prompt: the rubric, the output (and the calls), and the one answer shape accepted. */
export function gradingPrompt(input: JudgeInput, includeToolCalls = false): string {
  requireObject("gradingPrompt", "input", input, "a judge input such as { rubric, trace }");
  return [
    "You are grading the output of a coding agent against a rubric. Do not use any tools.",
    "",
    "<rubric>",
    input.rubric,
    "</rubric>",
    "",
    "<output>",
    input.output,
    "</output>",
    ...(includeToolCalls && input.calls?.length ? ["", "<tool_calls>", ...input.calls, "</tool_calls>"] : []),
    "",
    'Answer with one JSON object and nothing else: {"pass": true|false, "score": <number from 0 to 1>, "reason": "<one sentence>"}',
  ].join("\n");
}

/** The first JSON object in a judge's answer, as a verdict; a ProctorError naming the answer otherwise. */
export function readVerdict(answer: string): Pick<JudgeVerdict, "pass" | "score" | "reason"> {
  const start = answer.indexOf("{");
  const end = answer.lastIndexOf("}");
  let value: unknown;
  try {
    value = start === -1 || end < start ? undefined : JSON.parse(answer.slice(start, end + 1));
  } catch {
    value = undefined;
  }
  const v = value as { pass?: unknown; score?: unknown; reason?: unknown } | undefined;
  if (!v || typeof v.pass !== "boolean" || typeof v.score !== "number" || !(v.score >= 0 && v.score <= 1)) {
    throw new RunError("RUN_FAILED", `the judge's answer is not a verdict {"pass", "score" 0..1, "reason"}: ${JSON.stringify(answer.slice(0, 200))}`);
  }
  return { pass: v.pass, score: v.score, ...(typeof v.reason === "string" ? { reason: v.reason } : {}) };
}

/**
 * A model judge for `judged()`: `setDefaultJudge(claudeJudge())`. Each grading is one tool-less
 * `claude -p` run (its prompt, answer and cost are kept in the check's result); without an API key
 * grading fails with the reason — an ungraded output is never a pass.
 */
export function claudeJudge(options: ClaudeJudgeOptions = {}): JudgeFn {
  for (const key of ["timeoutMs", "maxBudgetUsd"] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === "number" && value > 0)) {
      throw new InvalidInputError("INVALID_INPUT", `claudeJudge: ${key} must be a positive number; got ${String(value)}`, { input: key, hint: "omit it for the default" });
    }
  }
  return async (input) => {
    const prompt = gradingPrompt(input, options.includeToolCalls);
    const { trace, cleanup } = await runEval({
      prompt,
      args: ["--tools", ""],
      maxTurns: 1,
      maxBudgetUsd: options.maxBudgetUsd ?? 0.25,
      timeoutMs: options.timeoutMs ?? 120_000,
      sandbox: options.sandbox ?? { jail: true },
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.claudePath !== undefined ? { claudePath: options.claudePath } : {}),
    });
    await cleanup();
    const answer = trace.output ?? "";
    return { ...readVerdict(answer), prompt, answer, ...(trace.usage?.costUsd !== undefined ? { costUsd: trace.usage.costUsd } : {}) };
  };
}
