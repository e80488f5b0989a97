/**
 * The promptfoo provider: each promptfoo test case becomes one proctor run — the real claude
 * binary against the scripted mock model (or the real API) — and promptfoo gets the output, the
 * token usage, the cost, and the whole Trace in `metadata.trace` for proctor's assertion to check.
 * promptfoo's `repeat`, matrix and viewer then work over real Claude Code runs.
 */
import { isAbsolute, resolve } from "node:path";
import type { HarnessSpec } from "../claude/spec.js";
import type { RunEvalSpec } from "../eval/spec.js";
import { isProctorError } from "../../src/errors/proctor-error.js";
import type { Trace } from "../../src/trace/types.js";

/** The provider's `config` in a promptfoo config: a harness spec without the prompt, plus the tier. */
export interface ProviderConfig extends Partial<Omit<HarnessSpec, "prompt" | "signal" | "mock" | "reject">>, Partial<Pick<RunEvalSpec, "apiKey" | "baseUrl" | "maxBudgetUsd">> {
  /** `mock`: the scripted mock model (needs `script`); `real`: the real API (needs ANTHROPIC_API_KEY). @default "mock" when a script is given, else "real" */
  readonly tier?: "mock" | "real";
  /** Set by promptfoo: the config file's directory. Relative paths (fixture, plugins, script files) resolve against it. */
  readonly basePath?: string;
}

/**
 * What promptfoo passes a provider per call (the parts proctor reads). A test case may carry
 * `vars.harness` (spec fields for this case, over the provider's config — what `proctor export
 * promptfoo` writes) and `vars.script` (this case's script).
 */
export interface ProviderContext {
  readonly vars?: Record<string, unknown>;
}

/** promptfoo's ProviderResponse, the fields proctor fills. */
export interface ProviderResponse {
  output?: string;
  error?: string;
  tokenUsage?: { total: number; prompt: number; completion: number; cached: number; numRequests: number } | undefined;
  cost?: number | undefined;
  metadata?: { trace?: Trace; exitCode?: number | null | undefined; tier: "mock" | "real"; durationMs?: number | undefined };
}

type RunResult = { trace: Trace; exitCode?: number | null; durationMs?: number; failure?: Error; cleanup?: () => Promise<void> };

function tokenUsage(trace: Trace): ProviderResponse["tokenUsage"] {
  const u = trace.usage;
  if (!u) return undefined;
  const prompt = u.inputTokens + u.cacheCreationTokens + u.cacheReadTokens;
  return { total: prompt + u.outputTokens, prompt, completion: u.outputTokens, cached: u.cacheReadTokens, numRequests: trace.turns ?? 1 };
}

/** A test case's `vars.script` (an object, JSON text, or a file path) overrides the config's script. */
function scriptFrom(vars: Record<string, unknown> | undefined, fallback: ProviderConfig["script"]): ProviderConfig["script"] {
  const v = vars?.script;
  if (v === undefined) return fallback;
  if (typeof v === "string" && v.trim().startsWith("{")) return JSON.parse(v) as ProviderConfig["script"];
  return v as ProviderConfig["script"];
}

/**
 * A promptfoo custom provider (`providers: [{ id: "file://…/proctor/promptfoo/provider.mjs", config: {…} }]`).
 * A run that fails (timed out, script overrun, crash) comes back as promptfoo's `error` — an
 * error in the results, never a graded pass — with the partial Trace still in metadata.
 */
export class ProctorProvider {
  readonly config: ProviderConfig;
  private readonly providerId: string;
  readonly label?: string | undefined;

  constructor(options: { id?: string; label?: string; config?: ProviderConfig } = {}) {
    this.config = options.config ?? {};
    this.providerId = options.id ?? "proctor";
    this.label = options.label;
  }

  id(): string {
    return this.providerId;
  }

  toString(): string {
    return `[proctor provider ${this.providerId}]`;
  }

  /** Run the prompt through claude and return what promptfoo grades. */
  async callApi(prompt: string, context?: ProviderContext): Promise<ProviderResponse> {
    const perCase = context?.vars?.harness;
    const merged: ProviderConfig = typeof perCase === "object" && perCase !== null ? { ...this.config, ...(perCase as ProviderConfig) } : this.config;
    const { tier: tierOption, basePath, ...spec } = merged;
    const script = scriptFrom(context?.vars, spec.script);
    const tier = tierOption ?? (script !== undefined ? "mock" : "real");
    const base = basePath ?? process.cwd();
    const cwd = spec.cwd === undefined ? base : isAbsolute(spec.cwd) ? spec.cwd : resolve(base, spec.cwd);
    let result: RunResult;
    try {
      const harness = await import("../index.js");
      if (tier === "mock") {
        if (script === undefined) return { error: "proctor provider: the mock tier needs a script — config.script (or vars.script) with the model's turns", metadata: { tier } };
        const { apiKey: _k, baseUrl: _u, maxBudgetUsd: _b, ...mock } = spec;
        result = await harness.runHarness({ ...mock, cwd, prompt, script, reject: false });
      } else {
        const runEval = harness.runEval as unknown as ((s: Record<string, unknown>) => Promise<RunResult>) | undefined;
        if (typeof runEval !== "function") return { error: "proctor provider: this build of proctor has no real-API tier (harness runEval); use tier: mock with a script", metadata: { tier } };
        if (!process.env.ANTHROPIC_API_KEY) return { error: "proctor provider: the real tier needs ANTHROPIC_API_KEY (it calls the real API and costs money)", metadata: { tier } };
        const { script: _script, ...real } = spec;
        result = await runEval({ ...real, cwd, prompt });
      }
    } catch (error) {
      return { error: `proctor provider: ${isProctorError(error) ? error.message : ((error as Error)?.message ?? String(error))}`, metadata: { tier } };
    }
    try {
      const { trace } = result;
      const response: ProviderResponse = {
        output: trace.output ?? trace.replies.at(-1)?.text ?? "",
        tokenUsage: tokenUsage(trace),
        cost: trace.usage?.costUsd,
        metadata: { trace, exitCode: result.exitCode, tier, durationMs: result.durationMs },
      };
      if (result.failure) response.error = `proctor provider: the run failed: ${result.failure.message}`;
      return response;
    } finally {
      await result.cleanup?.();
    }
  }
}
