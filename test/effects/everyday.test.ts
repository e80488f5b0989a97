/**
 * The everyday forms (everyday.ts, archives.ts, the walk's assignments and `while read`) and
 * their near misses: each near miss that writes is first shown writing under real bash.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { explainBash } from "../../src/effects/bash/classify.js";
import { loadShellParser } from "../../src/effects/bash/parser.js";

beforeAll(loadShellParser);

const NEAR_MISSES: Array<[string, "side-effecting" | "undecidable"]> = [
  ["tar -xf x.tar", "side-effecting"],
  ["tar xf x.tar", "side-effecting"],
  ["tar -tf x.tar --to-command=sh", "side-effecting"],
  ["tar tvf host:x.tar", "side-effecting"],
  ["tar -tf x.tar -I sh", "undecidable"],
  ["tar -t --lis x.tar", "side-effecting"],
  ["tar -tf $f", "undecidable"],
  ["gunzip x.gz", "side-effecting"],
  ["gzip -- -c", "side-effecting"],
  ["gzip -d x.gz", "side-effecting"],
  ["unzip -o -Z1 x.zip", "side-effecting"],
  ["zipinfo -o x.zip", "side-effecting"],
  ["find . -exec rm {} \\;", "undecidable"],
  ["find . -exec cat {} \\; -delete", "side-effecting"],
  ["find . -exec sort -o out {} \\;", "undecidable"],
  ["find . -exec git status \\;", "undecidable"],
  ["find . -ok cat {} \\;", "undecidable"],
  ["read PATH < f", "undecidable"],
  ["read -e x", "undecidable"],
  ["mapfile -C 'rm x;:' -c 1 l < f", "undecidable"],
  ["x=$(rm y)", "side-effecting"],
  ["IFS=/ x=1", "undecidable"],
  ["a[$i]=1", "undecidable"],
  ["while true; do ls; done", "undecidable"],
  ["until read x; do :; done", "undecidable"],
  ["while read x; do rm \"$x\"; done < f", "side-effecting"],
  ["PAGER=less git log", "undecidable"],
  ["IFS= ls", "undecidable"],
  ["git -c core.fsmonitor=x status", "undecidable"],
  ["git -c core.pager=rm log", "undecidable"],
  ["git log @{u}..{a,--output=x}", "undecidable"],
  ["bash -i -n script.sh", "undecidable"],
  ["sh -n -c 'rm x'", "undecidable"],
  ["getent hosts example.com", "side-effecting"],
  ["getent passwd $u", "undecidable"],
  ["kill -9 1", "side-effecting"],
];

describe("near misses of the everyday forms", () => {
  it.each(NEAR_MISSES)("%s is %s", (command, effect) => {
    expect(explainBash(command).effect).toBe(effect);
  });

  it.each([
    ["gzip -- -c", ["-c.gz"]],
    ["tar xf x.tar", ["a.txt"]],
    ["gunzip -f x.gz", ["x"]],
    ["find . -name x.gz -exec cat {} \\; -delete", []],
  ])("`%s` writes under real bash", (command, expected) => {
    const dir = mkdtempSync(join(tmpdir(), "proctor-everyday-"));
    try {
      writeFileSync(join(dir, "-c"), "c\n");
      writeFileSync(join(dir, "a.txt"), "a\n");
      spawnSync("bash", ["-c", "tar cf x.tar a.txt && rm a.txt && printf 'z\\n' | gzip > x.gz"], { cwd: dir });
      const before = readdirSync(dir).sort();
      spawnSync("bash", ["-c", command], { cwd: dir, stdio: "ignore" });
      const after = readdirSync(dir).sort();
      expect(after).not.toEqual(before);
      for (const name of expected) expect(after).toContain(name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
