/** Claude Code's part of a run's environment: its config dir, the endpoint and key, nothing that phones home. */
import { isolateEnv, LOCAL_MOCK_VARS } from "../run/env.js";

export interface IsolationVars {
  readonly home: string;
  /** TMPDIR: inside the run's temp root. */
  readonly tmp: string;
  readonly configDir: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly maxRetries: number;
}

/** The variables every Claude Code run gets (mock or real API): its own config dir and key, no telemetry or updates, the retry budget. */
export function claudeVars(iso: { configDir: string; apiKey: string; baseUrl?: string | undefined; maxRetries: number }): Record<string, string> {
  return {
    CLAUDE_CONFIG_DIR: iso.configDir,
    ...(iso.baseUrl ? { ANTHROPIC_BASE_URL: iso.baseUrl } : {}),
    ANTHROPIC_API_KEY: iso.apiKey,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_MAX_RETRIES: String(iso.maxRetries),
  };
}

/** Allowlisted parent env + the spec's env + isolation (temp HOME, TMPDIR and config dir, the mock's URL and key). */
export function buildChildEnv(parent: NodeJS.ProcessEnv, specEnv: Readonly<Record<string, string>> | undefined, iso: IsolationVars): Record<string, string> {
  return isolateEnv(parent, specEnv, iso, { ...claudeVars(iso), ...LOCAL_MOCK_VARS });
}

/** Spec variables that would point the CLI at another model endpoint or account. */
const ENDPOINT_VARS = /^(ANTHROPIC_(API_KEY|AUTH_TOKEN|BASE_URL|BEDROCK_\w+|VERTEX_\w+|FOUNDRY_\w+)|CLAUDE_CODE_(OAUTH_TOKEN|USE_\w+)|CLAUDE_CONFIG_DIR|HOME)$/;

/** The names in `specEnv` the harness owns (endpoint, credentials, config dir); empty when none. */
export function ownedVariables(specEnv: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(specEnv ?? {}).filter((k) => ENDPOINT_VARS.test(k));
}
