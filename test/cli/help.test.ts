/** Every command explains itself: --help and `proctor help CMD` print usage, each option with its meaning, examples and exit codes. */
import { describe, expect, it } from "vitest";
import { commandHelp, nearestOption } from "../../cli/help.js";
import { proctor } from "../helpers/cli.js";

const HELP = commandHelp();

describe("proctor help", () => {
  it("lists every command, each of which has a help entry", async () => {
    const r = await proctor(["--help"]);
    expect(r.exitCode).toBe(0);
    const listed = [...r.stdout.matchAll(/^ {2}proctor ([a-z-]+)/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.filter((c) => !HELP[c])).toEqual([]);
    expect(Object.keys(HELP).filter((c) => !listed.includes(c))).toEqual([]);
  });

  it.each(Object.keys(HELP))("proctor %s --help describes every option the command accepts", async (command) => {
    const [a, b] = await Promise.all([proctor([command, "--help"]), proctor(["help", command])]);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(a.stdout).toMatch(/^usage: proctor /);
    expect(a.stdout).toMatch(/exit codes: 0 /);
    // Each option row is "  --flag [VALUE]  meaning": an option the command accepts with no meaning here fails.
    const undocumented = a.stdout
      .split("\n")
      .filter((l) => /^ {2}(-\w, )?--[a-z-]+/.test(l))
      .filter((l) => !/^ {2}(-\w, )?--[a-z-]+( VALUE)?( …)?\s{2,}\S/.test(l));
    expect(undocumented).toEqual([]);
  });

  it("an unknown option names the nearest one and exits 2", async () => {
    const r = await proctor(["run", "--trails", "3"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^proctor run: error \[[A-Z_]+\] unknown option --trails — did you mean --trials\?/);
    expect(nearestOption("--conccurency", ["trials", "concurrency"])).toBe("concurrency");
    expect(nearestOption("--xyz", ["trials", "concurrency"])).toBeUndefined();
  });
});
