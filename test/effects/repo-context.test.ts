/**
 * classifyBash with a context: a read-only verdict must hold in the repository and PATH the
 * command runs in. Every key of PROGRAM_KEYS is proven against real git (a marker file appears
 * when the configured program runs), then the classifier must refuse the command there — and
 * find the same command read-only in a clean repository, where real git runs nothing.
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { explainBash, type BashContext } from "../../src/effects/bash/classify.js";
import { parseConfig, parseConfigParameters } from "../../src/effects/bash/context/config-syntax.js";
import { PROGRAM_ENV, PROGRAM_KEYS } from "../../src/effects/bash/context/program-keys.js";
import { DEMOS, git, makeRepo, makeSandbox, markerExists, markerScript, removeSandboxes, restat, runShell, signHead, touch, type Demo, type Sandbox } from "../helpers/git-repos.js";

afterAll(removeSandboxes);

const ctx = (sb: Sandbox, cwd: string, extra: Record<string, string> = {}): BashContext => ({ cwd, env: { ...sb.env, ...extra } });

/** Verifying a signature runs gpg whatever the configuration: these stay undecidable everywhere. */
const VERIFIES = new Set(["gpg.program", "gpg.<format>.program"]);

/** Build the demo's repository: hostile (configured) or clean (same history, no configuration). */
function demoRepo(demo: Demo, hostile: boolean): { sb: Sandbox; repo: string; env: Record<string, string> } {
  const sb = makeSandbox();
  const repo = demo.create ? demo.create(sb, hostile) : makeRepo(sb, "repo", demo.attributes);
  demo.prepare?.(sb, repo);
  if (hostile) demo.setup(sb, repo);
  return { sb, repo, env: { ...sb.env, ...(hostile ? (demo.env?.(sb) ?? {}) : {}) } };
}

describe("each key that runs a program, proven with real git", () => {
  it.each(DEMOS.map((d) => [d.key, d] as const))("%s", (key, demo) => {
    const bad = demoRepo(demo, true);
    runShell(bad.sb, bad.repo, demo.command, bad.env);
    expect(markerExists(bad.sb), `real git ran no program for ${key} on \`${demo.command}\``).toBe(true);
    const text = explainBash(demo.command);
    const here = explainBash(demo.command, { cwd: bad.repo, env: bad.env });
    expect(here.effect).not.toBe("read-only");
    if (text.effect === "read-only" && !VERIFIES.has(key)) expect(here.reason).toContain(key === "core.hooksPath" ? "post-index-change" : key);

    const clean = demoRepo(demo, false);
    runShell(clean.sb, clean.repo, demo.command, clean.env);
    const cleanVerdict = explainBash(demo.command, { cwd: clean.repo, env: clean.env });
    if (VERIFIES.has(key)) {
      expect(cleanVerdict.effect).toBe("undecidable");
      if (text.effect === "read-only") expect(cleanVerdict.reason).toMatch(/gpg/);
    } else {
      expect(markerExists(clean.sb)).toBe(false);
      expect(cleanVerdict).toEqual(text); // the clean repository changes nothing
    }
  });
});

/** Entries no offline test can prove, with why. */
const UNDEMONSTRATED: Record<string, string> = {
  "help.format": "`help.format=web` needs git's HTML manuals (git --html-path), which this machine kind does not install; git stops with 'documentation file not found' before any browser starts",
  "help.browser": "as help.format: reached only through `git help -w`, which needs the HTML manuals",
  "web.browser": "as help.format: reached only through `git help -w`, which needs the HTML manuals",
  "browser.<tool>.cmd": "as help.format: reached only through `git help -w`, which needs the HTML manuals",
  "browser.<tool>.path": "as help.format: reached only through `git help -w`, which needs the HTML manuals",
};

describe("the one list of keys", () => {
  it("has, for every entry, a real-git proof, a reason it never reaches a read-only command, or a reason it cannot be shown offline", () => {
    const demoed = new Set(DEMOS.map((d) => d.key));
    const uncovered = PROGRAM_KEYS.filter((k) => !demoed.has(k.key) && k.never === undefined && UNDEMONSTRATED[k.key] === undefined).map((k) => k.key);
    expect(uncovered).toEqual([]);
    for (const k of PROGRAM_KEYS) {
      expect(k.doc, k.key).toMatch(/^git[a-z-]*\(\d\)|^githooks|^gitattributes/);
      expect(k.runs.length, k.key).toBeGreaterThan(5);
    }
    const envDemoed = PROGRAM_ENV.filter((e) => demoed.has(e.name) || e.name.startsWith("GIT_TRACE") || e.name === "GIT_EXEC_PATH");
    expect(envDemoed).toHaveLength(PROGRAM_ENV.length);
  });

  it("refuses each undemonstrated key on the command that would reach it", () => {
    for (const key of Object.keys(UNDEMONSTRATED)) {
      const sb = makeSandbox();
      const repo = makeRepo(sb);
      const name = key.replace("<tool>", "x");
      git(sb, repo, ["config", name, "firefox"]);
      expect(explainBash("git log --help", ctx(sb, repo)).effect, key).toBe("undecidable");
      expect(explainBash("git log -1", ctx(sb, repo)).effect, key).toBe("read-only");
    }
  });

  it.each([
    ["alias.<name>", "alias.status", `!T`, "git status", "undecidable"],
    ["core.pager", "core.pager", "T", "git -p log -1", "read-only"],
    ["pager.<cmd>", "pager.log", "T", "git log -1", "read-only"],
    ["core.editor", "core.editor", "T", "git log -1", "read-only"],
    ["core.sshCommand", "core.sshCommand", "T", "git status", "read-only"],
  ])("%s never reaches a read-only command: real git does not run it", (entry, key, value, command, verdict) => {
    expect(PROGRAM_KEYS.find((k) => k.key === entry)?.never).toBeDefined();
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    git(sb, repo, ["config", key, value.replace("T", touch(sb))]);
    runShell(sb, repo, command);
    expect(markerExists(sb)).toBe(false);
    // An alias named like a subcommand is refused anyway, in case some git would honour it.
    expect(explainBash(command, ctx(sb, repo)).effect).toBe(verdict);
  });
});

describe("reach: a key counts only on the subcommands it reaches", () => {
  it("diff drivers, textconv and external diffs reach `git status` only with -v", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb, "repo", "* diff=x");
    git(sb, repo, ["config", "diff.x.textconv", `${touch(sb)}; cat`]);
    writeFileSync(join(repo, "f"), "staged\n");
    git(sb, repo, ["add", "f"]);
    for (const c of ["git status", "git status --short", "git status -s -b"]) {
      runShell(sb, repo, c);
      expect(markerExists(sb), c).toBe(false);
      expect(explainBash(c, ctx(sb, repo)).effect, c).toBe("read-only");
    }
    for (const c of ["git status -v", "git status -uno -v", "git status --verbose"]) {
      runShell(sb, repo, `rm -f ${sb.marker}; ${c}`);
      expect(markerExists(sb), c).toBe(true);
      expect(explainBash(c, ctx(sb, repo)).reason, c).toContain("diff.<driver>.textconv");
    }
  });
});

describe("which configuration a git command sees", () => {
  const hostile = (sb: Sandbox, repo: string) => git(sb, repo, ["config", "core.fsmonitor", `${touch(sb)}; false`]);

  it("without a context the verdict is the text's alone (it assumes a repository you trust)", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    hostile(sb, repo);
    expect(explainBash("git status").effect).toBe("read-only");
    expect(explainBash("git status", ctx(sb, repo)).reason).toMatch(new RegExp(`${repo}/\\.git/config:\\d+ sets core\\.fsmonitor`));
  });

  it("git run through env or xargs sees the same repository (and runs the same programs)", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    hostile(sb, repo);
    for (const command of ["env git status", "env -u PAGER git status", "echo . | xargs git status"]) {
      expect(explainBash(command.replace("git status", "ls"), ctx(sb, repo)).effect, command).not.toBe("undecidable");
      expect(explainBash(command, ctx(sb, repo)).effect, command).toBe("undecidable");
    }
    runShell(sb, repo, "env git status");
    expect(markerExists(sb)).toBe(true);
  });

  it.each([
    ["cd into it", (r: string) => `cd ${r} && git status`],
    ["cd into it, relative", () => "cd repo && git status"],
    ["-C", (r: string) => `git -C ${r} status`],
    ["-C, applied in order", () => "git -C . -C repo status"],
    ["--git-dir", (r: string) => `git --git-dir=${r}/.git --work-tree ${r} status`],
    ["--bare in its git directory", (r: string) => `cd ${r}/.git && git --bare --work-tree=.. status`],
    ["a subdirectory of it", (r: string) => `git -C ${r}/sub status`],
    ["in a command substitution", (r: string) => `echo $(git -C ${r} status)`],
  ])("finds a hostile repository reached by %s, from a clean directory", (_, command) => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    mkdirSync(join(repo, "sub"));
    hostile(sb, repo);
    const c = command(repo);
    runShell(sb, sb.root, c);
    expect(markerExists(sb)).toBe(true);
    expect(explainBash(c, ctx(sb, sb.root)).effect).toBe("undecidable");
    expect(explainBash("git status", ctx(sb, sb.root)).effect).toBe("read-only"); // no repository there
  });

  it("follows GIT_DIR, a gitfile, and a linked worktree's common directory", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    hostile(sb, repo);
    expect(explainBash("git status", ctx(sb, sb.root, { GIT_DIR: join(repo, ".git"), GIT_WORK_TREE: repo })).effect).toBe("undecidable");
    // gitfile
    const wt = join(sb.root, "gitfile");
    mkdirSync(wt);
    writeFileSync(join(wt, ".git"), `gitdir: ${join(repo, ".git")}\n`);
    runShell(sb, wt, "git status");
    expect(markerExists(sb)).toBe(true);
    expect(explainBash("git status", ctx(sb, wt)).effect).toBe("undecidable");
    // linked worktree: .git is a gitfile to .git/worktrees/x, whose commondir holds the config
    git(sb, repo, ["worktree", "add", "-q", join(sb.root, "linked")]);
    expect(explainBash("git log -1", ctx(sb, join(sb.root, "linked"))).reason).toContain(`${repo}/.git/config`);
  });

  it("reads config.worktree, includes (whatever their condition), and fails closed on what it cannot read", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    const c = ctx(sb, repo);
    writeFileSync(join(repo, ".git", "config.worktree"), `[diff]\n\texternal = x\n`);
    expect(explainBash("git diff", c).reason).toContain("config.worktree:2 sets diff.external");
    writeFileSync(join(repo, ".git", "config.worktree"), "");
    writeFileSync(join(sb.root, "inc"), `[core]\n\tfsmonitor = "${touch(sb)}; false"\n`);
    git(sb, repo, ["config", 'includeIf.gitdir:/nowhere/.path', "../../inc"]);
    expect(explainBash("git status", c).reason).toContain(`${sb.root}/inc:2 sets core.fsmonitor`);
    git(sb, repo, ["config", "--remove-section", "includeIf.gitdir:/nowhere/"]);
    const local = join(repo, ".git", "config");
    const base = readFileSync(local, "utf8");
    writeFileSync(local, `${base}[include]\n\tpath = missing-file\n`); // git skips a missing include
    expect(explainBash("git status", c).effect).toBe("read-only");
    mkdirSync(join(repo, ".git", "a-directory"));
    writeFileSync(local, `${base}[include]\n\tpath = a-directory\n`);
    expect(explainBash("git status", c).reason).toMatch(/a-directory is a directory/);
    writeFileSync(local, `${base}[include]\n\tpath = ~nobody/x\n`);
    expect(explainBash("git status", c).reason).toMatch(/cannot resolve the include ~nobody\/x/);
  });

  it("answers undecidable, naming the file, for a configuration git would refuse", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    writeFileSync(join(repo, ".git", "config"), "[core]\n\tfsmonitor = \"unterminated\n");
    expect(runShell(sb, repo, "git status").status).not.toBe(0);
    const v = explainBash("git status", ctx(sb, repo));
    expect(v.effect).toBe("undecidable");
    expect(v.reason).toContain(`${repo}/.git/config:2`);
  });

  it("reads the global and system files and the GIT_CONFIG_* environment", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    const file = join(sb.root, "g");
    writeFileSync(file, `[core]\n\tfsmonitor = "${touch(sb)}; false"\n`);
    for (const extra of <Record<string, string>[]>[
      { GIT_CONFIG_GLOBAL: file },
      { GIT_CONFIG_SYSTEM: file, GIT_CONFIG_NOSYSTEM: "" },
      { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: `${touch(sb)}; false` },
      { GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${touch(sb).replaceAll("'", "'\\''")}; false'` },
    ]) {
      runShell(sb, repo, "git status", { ...sb.env, ...extra });
      expect(markerExists(sb), JSON.stringify(extra)).toBe(true);
      expect(explainBash("git status", ctx(sb, repo, extra)).effect, JSON.stringify(extra)).toBe("undecidable");
      runShell(sb, repo, `rm -f ${sb.marker}`);
    }
    mkdirSync(join(sb.home, ".config", "git"), { recursive: true });
    writeFileSync(join(sb.home, ".config", "git", "config"), "[diff]\n\texternal = x\n");
    expect(explainBash("git diff", ctx(sb, repo)).reason).toContain(".config/git/config:2 sets diff.external");
  });

  it("checks the hooks directory for post-index-change, which git status runs", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    restat(repo);
    const hook = join(repo, ".git", "hooks", "post-index-change");
    writeFileSync(hook, `#!/bin/sh\n${touch(sb)}\n`);
    chmodSync(hook, 0o755);
    runShell(sb, repo, "git status");
    expect(markerExists(sb)).toBe(true);
    expect(explainBash("git status", ctx(sb, repo)).reason).toContain(hook);
    // A hooks path holding only commit hooks is fine.
    const sb2 = makeSandbox();
    const repo2 = makeRepo(sb2);
    mkdirSync(join(repo2, ".husky"));
    writeFileSync(join(repo2, ".husky", "pre-commit"), "#!/bin/sh\nexit 0\n");
    git(sb2, repo2, ["config", "core.hooksPath", ".husky"]);
    expect(explainBash("git status", ctx(sb2, repo2)).effect).toBe("read-only");
  });

  it("reads the configuration of submodules, where status and diff run git too", () => {
    const sb = makeSandbox();
    const inner = makeRepo(sb, "inner");
    const outer = makeRepo(sb, "outer");
    git(sb, outer, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "sub"]);
    git(sb, outer, ["commit", "-qm", "sub"]);
    expect(explainBash("git status", ctx(sb, outer)).effect).toBe("read-only");
    git(sb, outer, ["--git-dir=.git/modules/sub", "config", "core.fsmonitor", `${touch(sb)}; false`]);
    runShell(sb, outer, "git status");
    expect(markerExists(sb)).toBe(true);
    expect(explainBash("git status", ctx(sb, outer)).reason).toContain(".git/modules/sub/config");
  });

  it("treats a bare repository committed inside a project as a repository with its own configuration", () => {
    const sb = makeSandbox();
    // The attacker's bare repository: textconv for every path, mapped by its own info/attributes.
    const bare = join(sb.root, "evil.git");
    const work = makeRepo(sb, "work");
    git(sb, sb.root, ["clone", "-q", "--bare", work, bare]);
    writeFileSync(join(bare, "info", "attributes"), "* diff=x\n");
    git(sb, bare, ["config", "diff.x.textconv", `${touch(sb)}; cat`]);
    // Committed into a project, then cloned by the victim.
    const project = makeRepo(sb, "project");
    cpSync(bare, join(project, "vendor", "evil.git"), { recursive: true });
    for (const d of ["refs/heads", "refs/tags", "objects/info"]) {
      mkdirSync(join(project, "vendor", "evil.git", d), { recursive: true });
      writeFileSync(join(project, "vendor", "evil.git", d, ".keep"), "");
    }
    git(sb, project, ["add", "-A"]);
    git(sb, project, ["commit", "-qm", "vendor"]);
    const victim = join(sb.root, "victim");
    git(sb, sb.root, ["clone", "-q", project, victim]);
    expect(explainBash("git status", ctx(sb, victim)).effect).toBe("read-only");
    for (const [cwd, command] of [
      [victim, "git -C vendor/evil.git show HEAD"],
      [victim, "cd vendor/evil.git && git log -p -1"],
      [join(victim, "vendor", "evil.git", "refs"), "git show"],
    ]) {
      runShell(sb, cwd, `rm -f ${sb.marker}; ${command}`);
      expect(markerExists(sb), command).toBe(true);
      const v = explainBash(command, ctx(sb, cwd));
      expect(v.effect, command).toBe("undecidable");
      expect(v.reason).toContain("vendor/evil.git/config");
    }
  });

  it("refuses signature verification whatever the configuration, and any -c", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    signHead(sb, repo);
    git(sb, repo, ["config", "gpg.program", markerScript(sb)]);
    const tag = git(sb, repo, ["hash-object", "-t", "tag", "-w", "--stdin"], `object ${git(sb, repo, ["rev-parse", "HEAD"])}\ntype commit\ntag v1\ntagger t <t@example.test> 1 +0000\n\nm\n-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n`);
    git(sb, repo, ["update-ref", "refs/tags/v1", tag]);
    runShell(sb, repo, "git tag -v v1");
    expect(markerExists(sb)).toBe(true);
    for (const c of ["git tag -v v1", "git tag --verify v1", "git log --show-signature", "git log --format='%GK %GF'", "git show -s --pretty=format:%G?", "git for-each-ref --format='%(signature)'"]) {
      expect(explainBash(c, ctx(sb, repo)).effect, c).toBe("undecidable");
    }
    expect(explainBash("git tag -l", ctx(sb, repo)).effect).toBe("read-only");
  });

  it("expands an unquoted ~ as the shell does, in cd and -C", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb, "home/proj");
    hostile(sb, repo);
    for (const c of ["git -C ~/proj status", "cd ~/proj && git status", "cd && cd proj && git status"]) {
      expect(explainBash(c, ctx(sb, sb.root)).effect, c).toBe("undecidable");
    }
    expect(explainBash("git -C '~/proj' status", ctx(sb, sb.root)).effect).toBe("read-only"); // a directory named ~
    expect(explainBash("git -C ~nobody/proj status", ctx(sb, sb.root)).effect).toBe("undecidable");
  });

  it("loses track of the repository after a cd to a computed directory", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    expect(explainBash('cd "$D" && git status', ctx(sb, repo)).effect).toBe("undecidable");
    expect(explainBash('cd "$D" && ls', ctx(sb, repo)).effect).toBe("read-only");
    expect(explainBash("cd - && git status", { cwd: repo, env: { ...sb.env, OLDPWD: "" } }).effect).toBe("undecidable");
  });
});

describe("PATH safety", () => {
  const sb = makeSandbox();
  const repo = makeRepo(sb);
  const bin = join(repo, "bin");
  mkdirSync(bin);
  const path = (prefix: string) => ({ PATH: `${prefix}:${sb.env.PATH}` });

  it.each([
    ["an empty entry", ""],
    ["`.`", "."],
    ["a relative directory", "bin"],
  ])("a bare command name is undecidable with %s on PATH", (_, entry) => {
    const v = explainBash("ls", ctx(sb, repo, path(entry)));
    expect(v.effect).toBe("undecidable");
    expect(v.reason).toMatch(/relative entry/);
    // A builtin is never looked up; a path is not a PATH lookup.
    expect(explainBash("echo hi && cd /", ctx(sb, repo, path(entry))).effect).toBe("read-only");
    expect(explainBash("/bin/ls", ctx(sb, repo, path(entry))).effect).toBe("read-only");
  });

  it("is undecidable when the program resolves inside the repository, and read-only when the writable directory does not hold it", () => {
    expect(explainBash("ls", ctx(sb, repo, path(bin))).effect).toBe("read-only");
    writeFileSync(join(bin, "ls"), `#!/bin/sh\n${touch(sb)}\n`);
    chmodSync(join(bin, "ls"), 0o755);
    runShell(sb, repo, "ls", { ...sb.env, ...path(bin) });
    expect(markerExists(sb)).toBe(true);
    const v = explainBash("ls", ctx(sb, join(repo, "sub-does-not-matter"), path(bin)));
    expect(v.effect).toBe("undecidable");
    expect(v.reason).toContain(join(bin, "ls"));
    // Through a symbolic link to the same directory, too.
    symlinkSync(bin, join(sb.root, "linkbin"));
    expect(explainBash("ls", ctx(sb, repo, path(join(sb.root, "linkbin")))).effect).toBe("undecidable");
  });

  it("is undecidable with a world-writable PATH entry without the sticky bit before the program", () => {
    const open = join(sb.root, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(explainBash("cat f", ctx(sb, "/", path(open))).reason).toMatch(/anyone can write/);
    chmodSync(open, 0o1777);
    expect(explainBash("cat f", ctx(sb, "/", path(open))).effect).toBe("read-only");
  });
});

describe("other tools' configuration in the environment", () => {
  it("refuses a BASH_ENV inside the repository (or relative): the shell sources it before the command", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    writeFileSync(join(repo, "env.sh"), `${touch(sb)}\n`);
    runShell(sb, repo, "true", { ...sb.env, BASH_ENV: join(repo, "env.sh") });
    expect(markerExists(sb)).toBe(true);
    expect(explainBash("echo hi", ctx(sb, repo, { BASH_ENV: join(repo, "env.sh") })).reason).toMatch(/BASH_ENV/);
    expect(explainBash("echo hi", ctx(sb, repo, { BASH_ENV: "env.sh" })).effect).toBe("undecidable");
    expect(explainBash("echo hi", ctx(sb, repo, { BASH_ENV: join(sb.home, "env.sh") })).effect).toBe("read-only");
  });

  it("reads RIPGREP_CONFIG_PATH, whose arguments (--pre) rg adds", () => {
    const sb = makeSandbox();
    const file = join(sb.root, "rgrc");
    writeFileSync(file, "# flags\n--smart-case\n");
    expect(explainBash("rg foo", ctx(sb, sb.root, { RIPGREP_CONFIG_PATH: file })).effect).toBe("read-only");
    writeFileSync(file, "--pre=./x\n");
    expect(explainBash("rg foo", ctx(sb, sb.root, { RIPGREP_CONFIG_PATH: file })).reason).toMatch(/RIPGREP_CONFIG_PATH/);
  });
});

describe("never throws", () => {
  it.each([
    ["a directory that does not exist", { cwd: "/nonexistent/x", env: { GIT_CONFIG_NOSYSTEM: "1" } }, "read-only"],
    ["a malformed context", { cwd: 3, env: {} } as unknown as BashContext, "undecidable"],
    ["a bad GIT_CONFIG_COUNT", { cwd: "/", env: { GIT_CONFIG_COUNT: "x" } }, "undecidable"],
    ["a bad GIT_CONFIG_PARAMETERS", { cwd: "/", env: { GIT_CONFIG_PARAMETERS: "'unterminated" } }, "undecidable"],
  ])("with %s", (_, context, effect) => {
    expect(explainBash("git log -1", context).effect).toBe(effect);
  });
});

describe("git's configuration syntax", () => {
  it.each([
    ['[core]\n\tfsmonitor = "a b" # c\n', [["core", undefined, "fsmonitor", "a b"]]],
    ["[Diff \"Foo\"]\n\tTextConv = x\\\n y\n", [["diff", "Foo", "textconv", "x y"]]],
    ["[diff.Foo]\nbare\n", [["diff", "foo", "bare", undefined]]],
    ["k = v\n[a]\nk=v\\", [["", undefined, "k", "v"], ["a", undefined, "k", "v"]]],
    ["; c\n[a]k=\"x;y\"  ; z\n", [["a", undefined, "k", "x;y"]]],
    ['[a "sub\\"q"]\n k = \\"e\\t\\\\ \n', [["a", 'sub"q', "k", '"e\t\\']]],
  ])("parses %j", (text, want) => {
    const parsed = parseConfig(text, "f");
    expect("entries" in parsed && parsed.entries.map((e) => [e.section, e.subsection, e.name, e.value])).toEqual(want);
  });

  it.each(["[core\n", "[a]\n1k = v\n", "[a]\nk = \"x\n", "[a]\nk = \\q\n", "[a]\nk v\n"])("rejects %j, as git does", (text) => {
    expect(parseConfig(text, "f")).toHaveProperty("error");
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    writeFileSync(join(repo, ".git", "config"), text);
    expect(runShell(sb, repo, "git status").status).not.toBe(0);
  });

  it("reads GIT_CONFIG_PARAMETERS as git writes it", () => {
    expect(parseConfigParameters(`'core.fsmonitor'='it'\\''s' 'a.b.c=d'`)).toEqual([
      { section: "core", name: "fsmonitor", value: "it's", origin: "GIT_CONFIG_PARAMETERS" },
      { section: "a", subsection: "b", name: "c", value: "d", origin: "GIT_CONFIG_PARAMETERS" },
    ]);
  });
});
