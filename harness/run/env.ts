/**
 * A run's environment, by allowlist: a fixed set of harmless variables from the parent, the
 * spec's own variables (refused when they would redirect traffic, inject code or carry a
 * credential), then the isolation variables nothing may override — a temp HOME, XDG dirs and
 * TMPDIR inside the run's temp root, plus what the agent's CLI needs. Nothing else crosses,
 * whatever its name: a secret under a name no list knows cannot reach the agent.
 */
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { requireObject } from "../../src/errors/arguments.js";

/**
 * Parent variables a run keeps: how to find programs, which shell the user runs (agent CLIs pick
 * their shell tool by it; Codex runs commands differently without it), the locale, the terminal
 * kind and the time zone.
 */
const ALLOWED = /^(PATH|SHELL|LANG|LANGUAGE|LC_[A-Z_]+|TERM|TZ)$/;
/** What Windows needs to start any process at all. */
const ALLOWED_WINDOWS = /^(SYSTEMROOT|SYSTEMDRIVE|WINDIR|COMSPEC|PATHEXT)$/i;

/** The parent variables a run may see: PATH, SHELL, LANG, LANGUAGE, LC_*, TERM, TZ (on Windows also SystemRoot, ComSpec, PATHEXT …). */
export function allowedParentEnv(parent: Readonly<Record<string, string | undefined>>, platform: string = process.platform): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (ALLOWED.test(key) || (platform === "win32" && ALLOWED_WINDOWS.test(key))) out[key] = value;
  }
  return out;
}

/**
 * The parent environment as a run sees it. Kept for callers of the earlier scrub-list API: it is
 * now the allowlist, so a credential under any name is gone.
 */
export function scrubEnv(parent: Readonly<Record<string, string | undefined>>): Record<string, string> {
  requireObject("scrubEnv", "parent", parent, "an environment such as process.env");
  return allowedParentEnv(parent);
}

/** What a run against the local mock model adds: a proxy an unsafe spec sets must not intercept it. */
export const LOCAL_MOCK_VARS: Readonly<Record<string, string>> = { NO_PROXY: "127.0.0.1,localhost" };

/** The dirs a run's isolation variables point into. */
export interface IsolationDirs {
  /** The temp HOME (XDG dirs go under it). */
  readonly home: string;
  /** TMPDIR (and TMP/TEMP): inside the run's temp root, so every temp file goes with it. */
  readonly tmp: string;
}

/** The variables every run gets and no spec may set: HOME, the XDG dirs, TMPDIR and the run tag. */
export function isolationVars(dirs: IsolationDirs): Record<string, string> {
  const { home, tmp } = dirs;
  return {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_STATE_HOME: `${home}/.local/state`,
    TMPDIR: tmp,
    TMP: tmp,
    TEMP: tmp,
  };
}

/**
 * Allowlisted parent env + the spec's env + the isolation variables + the agent's own `vars`,
 * so no run sees the user's config or secrets and no spec can move HOME or TMPDIR.
 */
export function isolateEnv(
  parent: Readonly<Record<string, string | undefined>>,
  specEnv: Readonly<Record<string, string>> | undefined,
  dirs: IsolationDirs,
  vars: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...allowedParentEnv(parent), ...specEnv, ...isolationVars(dirs), ...vars };
}

/** Variables the harness always sets itself; a spec that sets one is refused, `unsafeEnv` or not. */
const OWNED = /^(HOME|USERPROFILE|TMPDIR|TMP|TEMP|XDG_(CONFIG|CACHE|DATA|STATE|RUNTIME)_HOME|XDG_RUNTIME_DIR|PROCTOR_RUN_TAG)$/;

/** The names in `specEnv` every runner owns (HOME, TMPDIR, XDG dirs, the run tag); empty when none. */
export function ownedRunVariables(specEnv: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(specEnv ?? {}).filter((k) => OWNED.test(k));
}

/** Why a spec variable is unsafe, by name; the first that matches is the one reported. */
const UNSAFE: readonly (readonly [RegExp, string])[] = [
  [/^(HTTPS?_PROXY|ALL_PROXY|FTP_PROXY|NO_PROXY)$/i, "a proxy setting: it would route the run's traffic (and the model key) through another host"],
  [/^(NODE_OPTIONS|BASH_ENV|ENV)$/, "it injects code into every node or shell process the run starts (hooks, MCP servers, tools)"],
  [/^(LD_|DYLD_)/, "it changes how every program the run starts is linked and loaded"],
  [
    /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|AUTH|COOKIE|DSN|SK|APIKEY)(_|$)|(^|_)(API|ACCESS|PRIVATE|SECRET|SIGNING)_?KEY(_|$)|.+_PWD$|^DATABASE_URL$/i,
    "it looks like a credential: whatever the run sees can land in its tool output, its trace and every request to the model",
  ],
];

/** Each unsafe variable in `specEnv` with why; empty when none. */
export function unsafeVariables(specEnv: Readonly<Record<string, string>> | undefined): { name: string; why: string }[] {
  const out: { name: string; why: string }[] = [];
  for (const name of Object.keys(specEnv ?? {})) {
    const hit = UNSAFE.find(([pattern]) => pattern.test(name));
    if (hit) out.push({ name, why: hit[1] });
  }
  return out;
}

/**
 * Refuse a spec.env that sets a variable the harness owns, or (without `unsafeEnv: true`) a proxy,
 * code-injection or credential variable — naming each and why, before anything spawns.
 */
export function checkSpecEnv(runner: string, specEnv: Readonly<Record<string, string>> | undefined, unsafeEnv: boolean | undefined): void {
  const owned = ownedRunVariables(specEnv);
  if (owned.length > 0) {
    throw new InvalidInputError("INVALID_INPUT", `${runner}: spec.env sets ${owned.join(", ")}, which the harness owns (every run gets its own temp HOME, XDG dirs and TMPDIR)`, {
      detail: "  drop them: files the agent writes there are removed with the run; use spec.files or a fixture for what it should find",
    });
  }
  if (unsafeEnv === true) return;
  const unsafe = unsafeVariables(specEnv);
  const [first] = unsafe;
  if (first) {
    throw new InvalidInputError("INVALID_INPUT", `${runner}: spec.env sets ${unsafe.map((u) => u.name).join(", ")}, refused as unsafe: ${first.name} — ${first.why}`, {
      detail: [
        ...unsafe.slice(1).map((u) => `  ${u.name}: ${u.why}`),
        "  pass a harmless test value under another name, or set unsafeEnv: true in the spec to pass these anyway",
      ].join("\n"),
    });
  }
}
