/** The run environment by allowlist, and the spec.env refusals, without the binary. */
import { describe, expect, it } from "vitest";
import { runCodex, runEval, runHarness } from "../../harness/index.js";
import { allowedParentEnv, checkSpecEnv, isolateEnv, unsafeVariables } from "../../harness/run/env.js";

const script = { turns: [{ text: "x" }] };

describe("the parent allowlist", () => {
  it("keeps PATH, SHELL, the locale, TERM and TZ, and nothing else whatever its name", () => {
    const parent = { PATH: "/bin", LANG: "C.UTF-8", LC_ALL: "C", LC_CTYPE: "C", TERM: "xterm", TZ: "UTC", DATABASE_URL: "pg://x", STRIPE_SK: "sk", MY_SERVICE_PWD: "pw", NODE_OPTIONS: "--require x", LD_PRELOAD: "/x.so", SHELL: "/bin/zsh", CI: "1", SystemRoot: "C:\\Windows" };
    expect(allowedParentEnv(parent, "linux")).toEqual({ PATH: "/bin", LANG: "C.UTF-8", LC_ALL: "C", LC_CTYPE: "C", TERM: "xterm", TZ: "UTC", SHELL: "/bin/zsh" });
    expect(allowedParentEnv(parent, "win32")).toHaveProperty("SystemRoot", "C:\\Windows");
  });

  it("puts the spec's variables over the allowlist and the isolation variables over both", () => {
    const env = isolateEnv({ PATH: "/bin", SECRET_THING: "s" }, { PATH: "/opt/bin", MY_FLAG: "1" }, { home: "/r/home", tmp: "/r/tmp" }, { AGENT_VAR: "a" });
    expect(env).toEqual({
      PATH: "/opt/bin",
      MY_FLAG: "1",
      HOME: "/r/home",
      USERPROFILE: "/r/home",
      XDG_CONFIG_HOME: "/r/home/.config",
      XDG_CACHE_HOME: "/r/home/.cache",
      XDG_DATA_HOME: "/r/home/.local/share",
      XDG_STATE_HOME: "/r/home/.local/state",
      TMPDIR: "/r/tmp",
      TMP: "/r/tmp",
      TEMP: "/r/tmp",
      AGENT_VAR: "a",
    });
  });
});

describe("spec.env refusals", () => {
  it.each([
    ["HTTPS_PROXY", /proxy setting/],
    ["https_proxy", /proxy setting/],
    ["NO_PROXY", /proxy setting/],
    ["NODE_OPTIONS", /injects code into every node or shell process/],
    ["BASH_ENV", /injects code/],
    ["LD_PRELOAD", /linked and loaded/],
    ["DYLD_INSERT_LIBRARIES", /linked and loaded/],
    ["GITHUB_TOKEN", /looks like a credential/],
    ["MY_SERVICE_PWD", /looks like a credential/],
    ["DATABASE_URL", /looks like a credential/],
    ["STRIPE_SK", /looks like a credential/],
    ["AWS_SECRET_ACCESS_KEY", /looks like a credential/],
    ["OPENAI_APIKEY", /looks like a credential/],
  ])("refuses %s, saying why and how to pass it anyway", (name, why) => {
    expect(() => checkSpecEnv("runHarness", { [name]: "v" }, undefined)).toThrow(why);
    expect(() => checkSpecEnv("runHarness", { [name]: "v" }, undefined)).toThrow(new RegExp(`runHarness: spec.env sets ${name}, refused as unsafe`));
    expect(() => checkSpecEnv("runHarness", { [name]: "v" }, true)).not.toThrow();
  });

  it("lists every unsafe name, and lets plain names through", () => {
    expect(unsafeVariables({ FOO: "1", PWD_HINT: "x", HTTPS_PROXY: "p", API_KEY: "k" }).map((u) => u.name)).toEqual(["HTTPS_PROXY", "API_KEY"]);
    expect(() => checkSpecEnv("runHarness", { FOO: "1", IS_SANDBOX: "1", CLAUDE_CODE_MAX_OUTPUT_TOKENS: "100", KEYBOARD: "us", AUTHOR: "me", SKIP: "1" }, undefined)).not.toThrow();
  });

  it("refuses HOME, TMPDIR and the XDG dirs even with unsafeEnv: the run's temp dirs are its own", () => {
    for (const name of ["TMPDIR", "XDG_CONFIG_HOME", "PROCTOR_RUN_TAG"]) {
      expect(() => checkSpecEnv("runHarness", { [name]: "/x" }, true)).toThrow(`runHarness: spec.env sets ${name}, which the harness owns`);
    }
  });

  it("is enforced by every runner before anything spawns", async () => {
    await expect(runHarness({ prompt: "go", script, env: { NODE_OPTIONS: "--require ./x.js" } })).rejects.toThrow(/^runHarness: spec.env sets NODE_OPTIONS, refused as unsafe/);
    await expect(runHarness({ prompt: "go", script, env: { TMPDIR: "/tmp" } })).rejects.toThrow(/^runHarness: spec.env sets TMPDIR, which the harness owns/);
    await expect(runHarness({ prompt: "go", script, env: { HTTPS_PROXY: "http://p" }, unsafeEnv: "yes" as never })).rejects.toThrow(/spec\.unsafeEnv must be a boolean/);
    await expect(runCodex({ prompt: "go", script, env: { LD_PRELOAD: "/x.so" } })).rejects.toThrow(/^runCodex: spec.env sets LD_PRELOAD, refused as unsafe/);
    await expect(runEval({ prompt: "go", apiKey: "k", env: { HTTPS_PROXY: "http://p" } })).rejects.toThrow(/^runEval: spec.env sets HTTPS_PROXY, refused as unsafe/);
  });
});
