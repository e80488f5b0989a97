/**
 * The classifier's allow-lists (the tool grammars, git's subcommands and actions, the programs
 * with a rule or a version query) are tables keyed by names from the command line. A name that is
 * a property of Object.prototype — `constructor`, `__proto__`, `toString` — must be an unknown name
 * like any other, never an entry the table does not list: `sed --constructor p f` was read-only
 * because `grammar.long.constructor` is Object itself.
 */
import { describe, expect, it } from "vitest";
import { explainBash } from "../../src/safety.js";

const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__"])];

function verdicts(make: (name: string) => string) {
  return NAMES.map((name) => {
    const command = make(name);
    return { command, ...explainBash(command) };
  });
}

describe("names of Object.prototype on a command line", () => {
  it.each([
    ["sed", (n: string) => `sed --${n} p f`],
    ["awk", (n: string) => `awk --${n} 1 f`],
    ["env", (n: string) => `env --${n} ls`],
    ["xargs", (n: string) => `xargs --${n} ls`],
    ["yq", (n: string) => `yq --${n} . f`],
  ])("are options %s's grammar does not model", (_tool, make) => {
    for (const v of verdicts(make)) {
      expect(v.effect, v.command).not.toBe("read-only");
      expect(v.reason, v.command).toMatch(/is not an option proctor models|is an ambiguous option/);
    }
  });

  // (`git config NAME` with one operand reads the key NAME, whatever the name: read-only by design.)
  it("are not read-only git subcommands, nor actions of stash, remote, worktree or notes", () => {
    for (const v of verdicts((n) => `git ${n}`)) {
      expect(v.effect, v.command).toBe("side-effecting");
      expect(v.reason, v.command).toMatch(/is not a read-only git subcommand/);
    }
    for (const sub of ["stash", "remote", "worktree", "notes"]) {
      for (const v of verdicts((n) => `git ${sub} ${n}`)) expect(v.effect, v.command).not.toBe("read-only");
    }
  });

  it("are programs proctor does not know, with or without a version flag", () => {
    for (const make of [(n: string) => `${n} x`, (n: string) => `${n} --version`]) {
      for (const v of verdicts(make)) {
        expect(v.effect, v.command).toBe("side-effecting");
        expect(v.reason, v.command).toMatch(/is not a command proctor knows to be read-only/);
      }
    }
  });
});
