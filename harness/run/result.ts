/** What every agent run hands back, whichever CLI ran and whichever model answered. */
import type { Trace } from "../../src/trace/types.js";
import type { HarnessError } from "./failure.js";

/** The fields runHarness, runCodex and runEval results share; `Self` is the agent's own result type. */
export interface AgentRunResult<Self> {
  /** The run's Trace: read from the CLI's output, files from the snapshot, model requests from the mock (when one answered). */
  readonly trace: Trace;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The CLI's raw output: Claude Code's stream-json transcript, Codex's `exec --json` events. */
  readonly stdout: string;
  readonly stderr: string;
  /** The agent's cwd; exists until `cleanup()` (or for good with `keep`). */
  readonly workDir: string;
  /** The argv the binary was run with (keys are in the environment, never here). */
  readonly command: readonly string[];
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** Why the run failed (only with `reject: false`; otherwise it was thrown). */
  readonly failure?: HarnessError<Self>;
  /** Remove the temp dirs (a no-op with `keep`). */
  cleanup(): Promise<void>;
}
