/**
 * The child's environment: the parent's, scrubbed of every credential and config pointer, then
 * the spec's own variables, then the isolation variables nothing may override.
 */

/** Variables that could carry a credential, a provider switch, or a user's Claude config. */
const SCRUB_PREFIX = /^(ANTHROPIC|CLAUDE|AWS_|AZURE_|GOOGLE_|GCLOUD_|GCP_|VERTEX_|OPENAI_|GEMINI_|BEDROCK)/i;
const SCRUB_WORD = /(TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|COOKIE|SESSION)/i;
const PROXIES = /^(HTTPS?_PROXY|ALL_PROXY|NO_PROXY)$/i;
/** Switches that change what the CLI permits; a run gets them only from its spec, so results don't depend on the machine. */
const SWITCHES = /^(IS_SANDBOX|PROCTOR_RUN_TAG)$/;

/** The parent environment without credentials, provider switches, proxies or Claude config. */
export function scrubEnv(parent: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || SCRUB_PREFIX.test(key) || SCRUB_WORD.test(key) || PROXIES.test(key) || SWITCHES.test(key)) continue;
    out[key] = value;
  }
  return out;
}

export interface IsolationVars {
  readonly home: string;
  readonly configDir: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly maxRetries: number;
}

/** Scrubbed parent env + the spec's env + isolation (temp HOME and config dir, the mock's URL and key). */
export function buildChildEnv(parent: NodeJS.ProcessEnv, specEnv: Readonly<Record<string, string>> | undefined, iso: IsolationVars): Record<string, string> {
  return {
    ...scrubEnv(parent),
    ...specEnv,
    HOME: iso.home,
    USERPROFILE: iso.home,
    XDG_CONFIG_HOME: `${iso.home}/.config`,
    XDG_CACHE_HOME: `${iso.home}/.cache`,
    XDG_DATA_HOME: `${iso.home}/.local/share`,
    XDG_STATE_HOME: `${iso.home}/.local/state`,
    CLAUDE_CONFIG_DIR: iso.configDir,
    ANTHROPIC_BASE_URL: iso.baseUrl,
    ANTHROPIC_API_KEY: iso.apiKey,
    NO_PROXY: "127.0.0.1,localhost",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_MAX_RETRIES: String(iso.maxRetries),
  };
}

/** Spec variables that would point the CLI at another model endpoint or account. */
const ENDPOINT_VARS = /^(ANTHROPIC_(API_KEY|AUTH_TOKEN|BASE_URL|BEDROCK_\w+|VERTEX_\w+|FOUNDRY_\w+)|CLAUDE_CODE_(OAUTH_TOKEN|USE_\w+)|CLAUDE_CONFIG_DIR|HOME)$/;

/** The names in `specEnv` the harness owns (endpoint, credentials, config dir); empty when none. */
export function ownedVariables(specEnv: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(specEnv ?? {}).filter((k) => ENDPOINT_VARS.test(k));
}
