/**
 * The Codex child's environment: the same parent allowlist as Claude runs (so no credential and
 * none of Codex's own settings cross), then the spec's variables, then the isolation variables
 * nothing may override.
 */
import { isolateEnv, LOCAL_MOCK_VARS } from "../run/env.js";
import { MOCK_KEY_VAR } from "./config.js";

export interface CodexIsolation {
  readonly home: string;
  /** TMPDIR: inside the run's temp root. */
  readonly tmp: string;
  readonly codexHome: string;
  readonly apiKey: string;
}

/** Allowlisted parent env + the spec's env + isolation (temp HOME, TMPDIR and CODEX_HOME, the mock run's key). */
export function buildCodexEnv(parent: NodeJS.ProcessEnv, specEnv: Readonly<Record<string, string>> | undefined, iso: CodexIsolation): Record<string, string> {
  return isolateEnv(parent, specEnv, iso, { CODEX_HOME: iso.codexHome, [MOCK_KEY_VAR]: iso.apiKey, ...LOCAL_MOCK_VARS });
}

/** Spec variables that would point Codex at another endpoint, account or config. */
const OWNED = /^(OPENAI_\w+|CODEX_\w+|AZURE_OPENAI_\w+|HOME|PROCTOR_MOCK_API_KEY)$/;

/** The names in `specEnv` the harness owns; empty when none. */
export function ownedCodexVariables(specEnv: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(specEnv ?? {}).filter((k) => OWNED.test(k));
}
