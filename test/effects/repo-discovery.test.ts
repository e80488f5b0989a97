/**
 * Discovery and shell-state holes, each first shown to run a program under real git or bash, then
 * refused by the classifier; the clean counterpart stays read-only where that is the point.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explainBash } from "../../src/effects/bash/classify.js";
import { loadShellParser } from "../../src/effects/bash/parser.js";
import { git, makeRepo, makeSandbox, markerExists, removeSandboxes, runShell, touch, type Sandbox } from "../helpers/git-repos.js";

beforeAll(loadShellParser);
afterAll(removeSandboxes);

/** A repository `main` whose index holds a gitlink `sub` (no .gitmodules), `sub` being a repository of its own. */
function withGitlink(sb: Sandbox, hostile: boolean, into = makeRepo(sb, "main")): string {
  const sub = makeRepo(sb, join(into.slice(sb.root.length + 1), "sub"));
  const head = git(sb, sub, ["rev-parse", "HEAD"]);
  git(sb, into, ["update-index", "--add", "--cacheinfo", `160000,${head},sub`]);
  writeFileSync(join(sub, "f"), "dirty\n");
  if (hostile) git(sb, sub, ["config", "core.fsmonitor", `${touch(sb)}; false`]);
  return into;
}

describe("submodules found through gitlinks, without .gitmodules", () => {
  it.each(["git status", "git diff"])("`%s` runs git, and the fsmonitor, inside a gitlink's repository; refused there", (command) => {
    const sb = makeSandbox();
    const main = withGitlink(sb, true);
    runShell(sb, main, command);
    expect(markerExists(sb)).toBe(true);
    expect(explainBash(command, { cwd: main, env: sb.env })).toMatchObject({ effect: "undecidable", reason: expect.stringContaining("core.fsmonitor") });
  });

  it("a clean gitlink changes nothing", () => {
    const sb = makeSandbox();
    const main = withGitlink(sb, false);
    expect(explainBash("git status", { cwd: main, env: sb.env }).effect).toBe("read-only");
  });
});

describe("core.worktree", () => {
  it("names the work tree whose gitlinks git follows, wherever the git directory is", () => {
    const sb = makeSandbox();
    const tree = makeRepo(sb, "tree");
    withGitlink(sb, true, tree);
    // Move the git directory away; core.worktree brings git back to the work tree.
    git(sb, sb.root, ["clone", "-q", "--bare", tree, "store.git"]);
    const store = join(sb.root, "store.git");
    runShell(sb, sb.root, `mv tree/.git/index store.git/index && rm -rf tree/.git`);
    git(sb, store, ["config", "core.bare", "false"]);
    git(sb, store, ["config", "core.worktree", "../tree"]);
    const command = "git --git-dir=store.git status";
    runShell(sb, sb.root, command);
    expect(markerExists(sb)).toBe(true);
    expect(explainBash(command, { cwd: sb.root, env: sb.env }).effect).toBe("undecidable");
  });
});

describe("redirections that assign a variable", () => {
  it("`{PATH}>…` sets PATH to a number, so the next `ls` is a program in the directory", () => {
    const sb = makeSandbox();
    for (let fd = 10; fd < 20; fd++) {
      mkdirSync(join(sb.root, String(fd)));
      writeFileSync(join(sb.root, String(fd), "ls"), `#!/bin/sh\n/usr/bin/${touch(sb)}\n`, { mode: 0o755 });
    }
    const command = "true {PATH}>/dev/null; ls";
    runShell(sb, sb.root, command);
    expect(markerExists(sb)).toBe(true);
    expect(explainBash(command).effect).toBe("undecidable");
  });

  it("`{a[x]}>…` evaluates x's value as a subscript, which runs the command a loop put there", () => {
    const sb = makeSandbox();
    const command = `for x in 'y[$(touch MARKER)]'; do true {a[x]}>/dev/null; done`;
    runShell(sb, sb.root, command);
    expect(readdirSync(sb.root)).toContain("MARKER");
    expect(explainBash(command).effect).toBe("undecidable");
  });

  it("a group's redirection is not one", () => {
    expect(explainBash("{ ls; }>/dev/null").effect).toBe("read-only");
    expect(explainBash("echo ${x}>/dev/null").effect).toBe("read-only");
  });
});
