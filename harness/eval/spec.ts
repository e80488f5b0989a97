/**
 * The real-API tier's spec and its refusals: runHarness's spec without the script (the real model
 * answers), plus the key and the per-run cost cap. Everything here is checked before anything
 * spawns, and nothing here ever prints the key.
 */
import { ConfigError, InvalidInputError } from "../../src/errors/proctor-error.js";
import type { RunEvalSpec } from "../../src/eval/spec-types.js";
import { validateSpec } from "../claude/spec.js";
import { ownedVariables } from "../claude/env.js";
import { checkSpecEnv } from "../run/env.js";
import { optional, requireObject, requireString } from "../../src/errors/arguments.js";

export type { RunEvalSpec } from "../../src/eval/spec-types.js";

export const DEFAULT_EVAL_BUDGET_USD = 1;
/** Real-API runs are slower than the mock: model latency, retries on overload. */
export const DEFAULT_EVAL_TIMEOUT_MS = 300_000;
export const DEFAULT_EVAL_MAX_RETRIES = 4;

const NO_KEY =
  "ANTHROPIC_API_KEY is not set: the real-API eval calls the Anthropic API (and costs money), so it was skipped — not passed";
const NO_KEY_DETAIL = "  set ANTHROPIC_API_KEY (or pass apiKey) to run it, or use runHarness with a scripted mock model for an offline run";

/** Why the real-API tier cannot run with this environment (no key), or undefined when it can — for `it.skipIf`. */
export function apiKeyMissing(env: Readonly<Record<string, string | undefined>> = process.env, apiKey?: string): string | undefined {
  requireObject("apiKeyMissing", "env", env, "an environment such as process.env");
  optional(requireString, "apiKeyMissing", "apiKey", apiKey, "an API key, or undefined to read ANTHROPIC_API_KEY");
  const key = apiKey ?? env.ANTHROPIC_API_KEY;
  if (key === undefined || key.trim() === "") {
    const other = ["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"].filter((v) => env[v]);
    return other.length ? `${NO_KEY} (${other.join(" and ")} ${other.length === 1 ? "is" : "are"} set, but evals use an API key only: the run's environment is scrubbed of every other credential)` : NO_KEY;
  }
  return undefined;
}

/** The key to use, or a NO_API_KEY error (which `measure` reports as a skipped eval, never a pass). */
export function resolveApiKey(spec: RunEvalSpec, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const missing = apiKeyMissing(env, spec.apiKey);
  if (missing) throw new ConfigError("NO_API_KEY", `runEval: ${missing}`, { detail: NO_KEY_DETAIL });
  const key = (spec.apiKey ?? env.ANTHROPIC_API_KEY) as string;
  if (/\s/.test(key)) throw new InvalidInputError("INVALID_INPUT", "runEval: the API key contains whitespace (a stray newline from a secrets file?); strip it");
  return key;
}

function refuse(field: string, problem: string): never {
  throw new InvalidInputError("INVALID_INPUT", `runEval: spec.${field} ${problem}`);
}

/** Reject a malformed spec before anything spawns, naming the field. */
export function validateEvalSpec(spec: unknown): asserts spec is RunEvalSpec {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) throw new InvalidInputError("INVALID_INPUT", "runEval: the spec must be an object like { prompt }");
  const s = spec as Record<string, unknown>;
  if ("script" in s) refuse("script", "has no place in a real-API run: the real model answers (for a scripted, offline run use runHarness)");
  if ("mock" in s) refuse("mock", "has no place in a real-API run: it talks to the real API (for the mock model use runHarness)");
  const { apiKey, baseUrl, maxBudgetUsd, ...rest } = s;
  if (apiKey !== undefined && typeof apiKey !== "string") refuse("apiKey", `must be a string; got ${typeof apiKey}`);
  if (baseUrl !== undefined && (typeof baseUrl !== "string" || !/^https?:\/\/\S+$/.test(baseUrl))) refuse("baseUrl", `must be an http(s) URL; got ${JSON.stringify(baseUrl)}`);
  if (maxBudgetUsd !== undefined && !(typeof maxBudgetUsd === "number" && maxBudgetUsd > 0 && Number.isFinite(maxBudgetUsd))) {
    refuse("maxBudgetUsd", `must be a positive number of dollars (the per-run cost cap); got ${JSON.stringify(maxBudgetUsd)}`);
  }
  const owned = ownedVariables(rest.env as Record<string, string> | undefined);
  if (owned.length > 0) refuse("env", `sets ${owned.join(", ")}: the key goes in apiKey, the endpoint in baseUrl; HOME and the config dir are the run's own`);
  checkSpecEnv("runEval", rest.env as Record<string, string> | undefined, rest.unsafeEnv as boolean | undefined);
  // The rest is a harness spec; validate it as one (a placeholder script stands in for the real model).
  try {
    validateSpec({ ...rest, script: {} });
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", (error as Error).message.replace(/^runHarness:/, "runEval:"), { cause: error });
  }
}
