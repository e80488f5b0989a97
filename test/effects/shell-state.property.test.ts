/**
 * Shell state that moves later commands, against real bash: lines of `cd`, `pushd` (with `-n`,
 * `+N`, `-N`), `popd`, `dirs`, `cd -`, CDPATH names, `..` after a symbolic link (logical and
 * `-P`), a PWD that names the start directory through a link, and HOME are generated; real bash
 * runs each line and says where it ended (`pwd -P`). Then that directory, and only it, is made
 * hostile — it holds the file RIPGREP_CONFIG_PATH names (relative, so read where `rg` runs), which
 * adds `--pre=…` — and the classifier must not call `LINE; rg x` read-only there.
 * `PROCTOR_SHELL_STATE_RUNS` sets the number of lines (CI: 80).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explainBash } from "../../src/effects/bash/classify.js";
import { loadShellParser } from "../../src/effects/bash/parser.js";

const RUNS = Number(process.env.PROCTOR_SHELL_STATE_RUNS ?? 80);
const t = realpathSync(mkdtempSync(join(tmpdir(), "proctor-shell-state-")));
const start = join(t, "w", "x");

beforeAll(async () => {
  await loadShellParser();
  for (const d of ["w/x/a/b", "w/x/b", "home/h", "old", "cdp/c", "w/c", "elsewhere/deep"]) mkdirSync(join(t, d), { recursive: true });
  symlinkSync(join(t, "elsewhere", "deep"), join(start, "l")); // l/.. is elsewhere for the kernel, . for a logical cd
  symlinkSync(start, join(t, "alias")); // PWD=t/alias: a logical `cd ..` goes to t, a physical one to t/w
});
afterAll(() => rmSync(t, { recursive: true, force: true }));

const STEPS = [
  "cd a", "cd a/b", "cd ..", "cd l", "cd l/..", "cd -P l/..", "cd -L l/..", "cd -", "cd ~", "cd", "cd ~/h", "cd c", "cd b", `cd ${t}/old`, "cd /nonexistent",
  "pushd a", "pushd -n a", "pushd -n l/..", "pushd -n ../c", "pushd", "pushd +1", "pushd -1", "pushd -n +1", "popd", "popd -n", "popd +1", "popd -1", "dirs", "dirs -c", "dirs -v",
] as const;
const line = fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 6 }).map((steps) => steps.map((s) => `${s} >/dev/null 2>&1`).join("; "));
const environment = fc.record({ cdpath: fc.boolean(), pwd: fc.constantFrom("none", "start", "alias") });

function envFor(e: { cdpath: boolean; pwd: string }): Record<string, string> {
  const env: Record<string, string> = { PATH: "/usr/bin:/bin", HOME: join(t, "home"), OLDPWD: join(t, "old"), GIT_CONFIG_NOSYSTEM: "1", RIPGREP_CONFIG_PATH: "rgrc", LANG: "C" };
  if (e.cdpath) env.CDPATH = join(t, "cdp");
  if (e.pwd === "start") env.PWD = start;
  if (e.pwd === "alias") env.PWD = join(t, "alias");
  return env;
}

function bashEndsIn(command: string, env: Record<string, string>): string {
  const r = spawnSync("bash", ["-c", `${command}; pwd -P`], { cwd: start, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });
  return r.stdout.trim().split("\n").at(-1) ?? "";
}

describe("directory-changing shell state, with bash as the oracle", () => {
  it(`a directory a line ends in is one the classifier judges later commands in (${RUNS} lines)`, () => {
    let readOnlyWhenClean = 0;
    fc.assert(
      fc.property(line, environment, (command, e) => {
        const env = envFor(e);
        const ended = bashEndsIn(command, env);
        expect(ended.startsWith(t), `bash ended in ${ended}`).toBe(true);
        const full = `${command}; rg x`;
        const context = { cwd: start, env };
        if (explainBash(full, context).effect === "read-only") readOnlyWhenClean++;
        const rc = join(ended, "rgrc");
        writeFileSync(rc, "--pre=touch\n");
        try {
          const verdict = explainBash(full, context);
          expect(verdict.effect, `\`${full}\` with PWD=${env.PWD ?? "-"} CDPATH=${env.CDPATH ?? "-"}: bash ends in ${ended}`).not.toBe("read-only");
        } finally {
          rmSync(rc);
        }
      }),
      // Regression cases, each read-only before: a `pushd -n` directory reached by `popd`; `cd ..` from a PWD that is a link.
      { numRuns: RUNS, seed: Number(process.env.PROCTOR_FC_SEED ?? 20261205), examples: [["pushd -n ../c >/dev/null 2>&1; popd >/dev/null 2>&1", { cdpath: false, pwd: "none" }], ["cd .. >/dev/null 2>&1", { cdpath: false, pwd: "alias" }]] },
    );
    // Not vacuous: in the clean tree most lines stay read-only.
    expect(readOnlyWhenClean).toBeGreaterThan(RUNS / 2);
  }, 120_000);
});
