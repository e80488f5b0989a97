/**
 * A run's environment: the parent's, scrubbed of every credential and config pointer, then the
 * spec's own variables, then the isolation variables nothing may override — a temp HOME for
 * every agent, plus what the agent's CLI needs.
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

/** What a run against the local mock model adds: a proxy the spec sets must not intercept it. */
export const LOCAL_MOCK_VARS: Readonly<Record<string, string>> = { NO_PROXY: "127.0.0.1,localhost" };

/**
 * Scrubbed parent env (minus `drop`) + the spec's env + the temp HOME (and the XDG dirs under
 * it) + the agent's own variables, so no run sees the user's config and no spec can move it.
 */
export function isolateEnv(
  parent: NodeJS.ProcessEnv,
  specEnv: Readonly<Record<string, string>> | undefined,
  home: string,
  vars: Readonly<Record<string, string>>,
  drop?: RegExp,
): Record<string, string> {
  const scrubbed = Object.entries(scrubEnv(parent)).filter(([k]) => !drop?.test(k));
  return {
    ...Object.fromEntries(scrubbed),
    ...specEnv,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_STATE_HOME: `${home}/.local/state`,
    ...vars,
  };
}
