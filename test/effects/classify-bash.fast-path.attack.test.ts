/**
 * Attacks on the fast path (src/effects/bash/fast-path.ts), with two oracles: the full path
 * (its verdict must be the fast path's exactly) and real `bash` (a command the fast path calls
 * read-only must change no file and run no program the repository configures).
 *
 * The shapes: quotes next to operators, `=`, `~` and globs; operators with and without spaces and
 * their look-alikes; redirections and their look-alikes wherever they stand; tilde forms; glob
 * words as options; pipelines into commands that read their standard input; and git in a
 * repository configured to run programs, reached through tilde forms of `cd` and `git -C`.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explainBashFullPath, type BashContext } from "../../src/effects/bash/classify.js";
import { readOnlyCommandNames } from "../../src/effects/bash/commands.js";
import { fastPathVerdict } from "../../src/effects/bash/fast-path.js";
import { loadShellParser } from "../../src/safety.js";
import { git, makeRepo, makeSandbox, markerExists, removeSandboxes, runShell, touch, type Sandbox } from "../helpers/git-repos.js";
import { runUnderBash } from "./classify-bash.execute.js";

beforeAll(() => loadShellParser());
afterAll(removeSandboxes);

/** The fast path answers nothing, or the full path's verdict exactly; true when it answered. */
function agrees(command: string, context?: BashContext): boolean {
  const fast = fastPathVerdict(command, context);
  if (fast === undefined) return false;
  expect(fast, command).toEqual(explainBashFullPath(command, context));
  return true;
}

/**
 * The oracle, then the verdicts: real bash running `command` in the context's directory runs the
 * repository's configured program (the marker appears), and neither path calls it read-only.
 */
function expectRunsProgramNotReadOnly(sb: Sandbox, context: BashContext, command: string, env?: Record<string, string>): void {
  runShell(sb, context.cwd, command, env);
  const ran = markerExists(sb);
  runShell(sb, sb.root, `rm -f '${sb.marker}'`);
  expect(ran, command).toBe(true);
  expect(fastPathVerdict(command, context)?.effect ?? "(full path)", command).not.toBe("read-only");
  expect(explainBashFullPath(command, context).effect, command).not.toBe("read-only");
}

const NAMES = ["ls", "cat", "echo", "printf", "git", "find", "sort", "sed", "grep", "head", "wc", "env", "xargs", "tee", "cd", "pushd", "set", "test", "rm", "touch", ":", "true", "jq", "awk", "uniq", "diff", "stat", "command", "type"];
const ARGS = ["-n", "-o", "x", "f", "keep", "-delete", "-exec", "status", "log", "diff", "-C", "push", "-la", "--", "-", "-p", "-e", "-i", "-r", "-0", "-a", "PWNED", "keep/file", "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/tty", "/dev/fd/1", "/dev/stderr"];
/** Words built from the corner cases: empty quotes, quotes next to `=`, `~`, globs and dashes, tilde forms, glob options. */
const ODD = ["''", '""', "'-'", '"-"', "a=''", "''=a", "=''", "a=~", "~", "~+", "~-", "~root", "~''", "''~", '~""/x', "~/x", "~+/x", "-*", "--*=x", "*", "?", "-?", "'*'", "*''", "~*", "a=*", "-'o'", "'-o'", "-o''", "''-o", "'touch PWNED'", '"rm -rf keep"', "'|'", "';'", "'&&'", "'>'", "'2>/dev/null'", "==", "=~", "%", "@", "+", ",", ":"];
const REDIRECTS = ["2>/dev/null", ">/dev/null", "1>/dev/null", "&>/dev/null", "> /dev/null", "2>&1", "1>&2", ">&2",
  "2>/dev/nullx", "2>/dev/null/..", ">/dev/null2", "2>&1-", ">&2x", "2>&-", "&>/dev/null&", ">/dev/stdout", ">/dev/tty", ">/dev/fd/1", "2>/dev/stderr", ">>/dev/null", "2>&12", "&>>/dev/null", ">|/dev/null", "0>/dev/null", "<>/dev/null"];
const OPS = ["|", "||", "&&", ";", " | ", " || ", " && ", " ; "];
const NEAR_OPS = [";;", "&&&", ";&", "|||", "| |", "&", "|&", ";|", "&|", "||;", "", "; ;", ";&&"];
const operator = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...OPS) }, { weight: 1, arbitrary: fc.constantFrom(...NEAR_OPS) });

const argument = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ARGS) }, { weight: 3, arbitrary: fc.constantFrom(...ODD) }, { weight: 1, arbitrary: fc.constantFrom(...REDIRECTS) });
const simple = fc
  .tuple(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.constantFrom(...ODD, ...REDIRECTS) }), fc.array(fc.tuple(fc.constantFrom(" ", " ", " ", "", "  "), argument), { maxLength: 4 }))
  .map(([n, rest]) => n + rest.map(([s, w]) => s + w).join(""));
/** Attack-shaped command lines: commands and the odd words above joined by operators and their look-alikes, spaced or not, at either end too. */
const attack = fc
  .tuple(
    fc.constantFrom("", "", "", "", "", " ", ";", "|", "''", '""'),
    simple,
    fc.array(fc.tuple(operator, simple), { maxLength: 3 }),
    fc.oneof({ weight: 4, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom(" ", ";", "|", "&", "''", ...REDIRECTS.map((r) => ` ${r}`), ...REDIRECTS) }),
  )
  .map(([lead, first, rest, trail]) => lead + first + rest.map(([op, c]) => op + c).join("") + trail);

/** What writes, in words the stdin readers below take: commands, file names, options. */
const PAYLOAD = ["touch PWNED", "rm -rf keep", "-delete", "PWNED", "-o PWNED", "--output=PWNED", "keep", "f", "-i", "sh -c 'touch PWNED'", "-exec touch PWNED ;"];
const PRODUCERS = PAYLOAD.flatMap((p) => [`echo ${p.includes("'") ? `"${p}"` : `'${p}'`}`, `printf '%s\\n' '${p.replaceAll("'", "")}'`]).concat(["cat f", "ls", "find .", "git status", "echo"]);
/** Commands that read their standard input: what each does with what the producer wrote. */
const READERS = ["xargs", "xargs -0", "xargs -r", "xargs -n1", "xargs echo", "xargs ls", "xargs cat", "xargs -a /dev/stdin", "xargs -d ' '", "xargs -L1", "xargs -t", "xargs -x", "xargs grep x",
  "sh", "bash", "source /dev/stdin", ". /dev/stdin", "tee", "tee /dev/null", "tee -a", "env", "env -i", "git apply", "git apply --check", "git apply --stat", "patch", "patch --dry-run", "sponge", "cat", "sort", "sort -o", "uniq", "uniq - PWNED",
  "sed -f /dev/stdin", "sed -n p", "awk -f /dev/stdin", "awk 1", "jq -R", "grep -f /dev/stdin f", "find -files0-from -", "head -c1", "wc -l", "base64 -d", "tr a b", "cut -c1", "diff - f", "cmp - f", "comm - f", "paste -", "git check-ignore --stdin", "git cat-file --batch", "git hash-object --stdin", "git hash-object -w --stdin", "git mktree --missing"];
const pipeline = fc
  .tuple(fc.constantFrom(...PRODUCERS), fc.constantFrom(...OPS), fc.constantFrom(...READERS), fc.constantFrom("", "", " 2>/dev/null", " >/dev/null", " 2>&1", " &>/dev/null"), fc.constantFrom("", "", " | cat", " && ls", "; wc -l f", " | sh", " | xargs"))
  .map(([p, op, r, redirect, tail]) => `${p}${op}${r}${redirect}${tail}`);

/**
 * Glob words that may vanish (`shopt -s nullglob`, read-only itself, makes an unmatched pattern
 * expand to no word at all), so that the words after one shift into its place: an option's value
 * becomes the next word, a harmless operand becomes the script. The catalog must treat a pattern
 * as any number of words, none included.
 */
const VANISHING = ["*zz", "-*zz", "--*zz", "?zz"];
const SHIFTED = ["'w PWNED'", "'BEGIN{system(\"touch PWNED\")}'", "'{print > \"PWNED\"}'", "--output=PWNED", "-o", "PWNED", "-delete", "-fprint", "--pre=touch", "'e touch PWNED'", "'1e touch PWNED'", "-i", "--in-place", "-e", "-f", "-v", "-a", "-n", "-x", "f", "keep/file", "-exec", "touch", ";", "+", "--", "x=1"];
const vanishing = fc
  .tuple(
    fc.constantFrom("shopt -s nullglob; ", "shopt -s nullglob && "),
    fc.constantFrom("awk", "gawk", "sed", "find", "grep", "rg", "sort", "uniq", "xargs", "jq", "git log", "git diff", "diff", "head", "tail", "cut", "tree", "fd", "yq", "xxd", "tee", "env", "file"),
    fc.array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...VANISHING) }, { weight: 3, arbitrary: fc.constantFrom(...SHIFTED, ...ARGS) }), { minLength: 1, maxLength: 5 }),
  )
  .map(([prefix, name, words]) => `${prefix}${name} ${words.join(" ")}`);

/**
 * Options after operands: GNU tools permute, others (xxd) stop reading options at the first
 * operand, so there `xxd f -u` names the output file `-u`. Every catalog command, an operand,
 * then options and operands in any order.
 */
const LATE = ["-u", "-f", "-o", "-d", "-i", "-p", "-r", "-c", "-x", "-w", "-e", "-n", "-1", "-", "--", "--output=PWNED", "-oPWNED", "PWNED", "f", "keep", "-d PWNED", "-o PWNED", "--in-place", "-R", "-H", "-l", "-s", "-t"];
const lateOptions = fc
  .tuple(fc.constantFrom(...readOnlyCommandNames().filter((n) => !["cd", "pushd", "popd", "exit", "set", "shopt", "sleep", "xargs", "env", "command"].includes(n))), fc.constantFrom("f", "-", "keep/file", "-c 2 f", "-l f"), fc.array(fc.constantFrom(...LATE), { minLength: 1, maxLength: 3 }))
  .map(([name, first, rest]) => `${name} ${first} ${rest.join(" ")}`);

/** CI generates half the attack lines (fixed seeds); nightly: PROCTOR_ATTACK_SCALE=1 (or more). */
const SCALE = Number(process.env.PROCTOR_ATTACK_SCALE ?? 0.5);
const sized = (n: number) => Math.max(1, Math.round(n * SCALE));

describe("the fast path under attack", () => {
  it("answers as the full path does over attack-shaped command lines, and takes a share of them", () => {
    let taken = 0;
    fc.assert(
      fc.property(attack, (c) => {
        if (agrees(c)) taken++;
      }),
      { numRuns: sized(20_000), seed: 20261203 },
    );
    expect(taken).toBeGreaterThan(sized(1000));
  });

  it.each(["xxd f -u", "xxd f -f", "xxd - -p", "shopt -s nullglob && xxd f -f", "ls | xxd - -c"])("%s writes a file under bash, and is not called read-only", async (command) => {
    expect((await runUnderBash([command])).map((f) => f.command)).toEqual([command]);
    expect(fastPathVerdict(command)?.effect ?? "(full path)").not.toBe("read-only");
    expect(explainBashFullPath(command).effect).not.toBe("read-only");
  });

  it("calls no attack-shaped line, stdin pipeline or vanishing glob read-only that changes a file under bash", async () => {
    const commands = [...fc.sample(attack, { numRuns: sized(4000), seed: 7 }), ...fc.sample(pipeline, { numRuns: sized(2000), seed: 8 }), ...fc.sample(vanishing, { numRuns: sized(3000), seed: 9 }), ...fc.sample(lateOptions, { numRuns: sized(3000), seed: 10 })];
    const readOnly = [...new Set(commands.filter((c) => fastPathVerdict(c)?.effect === "read-only"))];
    console.info(`fast-path attack oracle: ${commands.length} generated, ${readOnly.length} distinct called read-only and run under bash`);
    // The oracle proves nothing if the fast path refuses everything it is shown.
    expect(readOnly.length).toBeGreaterThan(sized(500));
    const findings = await runUnderBash(readOnly);
    expect(findings.map((f) => ({ command: f.command, after: f.after }))).toEqual([]);
  }, 300_000);
});

/**
 * A clean repository holding two others configured to run a program on `git status`
 * (core.fsmonitor): one in a directory named `~` — Bash expands a tilde prefix only when no
 * character of it is quoted, so `~''`, `''~` and `"~"/` all name that directory, not HOME — and
 * one in `sub`, which `env -C sub git status` runs git in.
 */
describe("git in a repository reached by a quoted tilde or env -C", () => {
  let sb: Sandbox;
  let context: BashContext;
  beforeAll(() => {
    sb = makeSandbox();
    const outer = makeRepo(sb, "outer");
    const inner = makeRepo(sb, "outer/~");
    git(sb, inner, ["config", "core.fsmonitor", `${touch(sb)}; false`]);
    const sub = makeRepo(sb, "outer/sub");
    git(sb, sub, ["config", "core.fsmonitor", `${touch(sb)}; false`]);
    mkdirSync(join(sb.home, "x"), { recursive: true });
    writeFileSync(join(outer, ".gitignore"), "~\nsub\n");
    context = { cwd: outer, env: sb.env };
  });

  const COMMANDS = [
    "cd ~'' && git status", "cd ''~ && git status", 'cd "~" && git status', "cd ~\"\"/ && git status", "cd '~'/ && git status", "cd ~'' ; git status",
    "git -C ~'' status", "git -C ''~ status", "git -C \"~\"/ status", "pushd ~'' && git status", "cd ~''/. && git status",
    "env -C sub git status", "env --chdir=sub git status", "env --chdir sub git status", "env -iC sub git status", "env -C sub -- git status", "env --ch=sub git status",
    "env -C ~'' git status", "env -u X -C sub git status", "ls; env -C sub git status", "env -C . env -C sub git status", "env -C sub xargs -a /dev/null git status",
  ];

  it.each(COMMANDS)("%s runs the repository's program under bash, and the fast path does not call it read-only", (command) => {
    // The oracle: real bash in that directory runs the configured program.
    runShell(sb, context.cwd, "rm -f MARKER");
    const before = markerExists(sb);
    expect(before).toBe(false);
    expectRunsProgramNotReadOnly(sb, context, command);
  });

  it("answers as the full path does for tilde forms of cd, git -C and env -C here", () => {
    const tildes = ["~", "~/", "~''", "''~", '"~"', "'~'", "~/x", "~''/x", "~+", "~-", "~root", "~x", "'~'/x", "~/.", "a/~", "~/~''"];
    for (const t of [...tildes, "sub", "sub/", "''", "."]) {
      for (const c of [`cd ${t} && git status`, `git -C ${t} status`, `pushd ${t}; git log`, `cd ${t}; cd ${t}; git diff`, `env -C ${t} git status`, `env --chdir=${t} git log`, `env -C ${t} ls`]) agrees(c, context);
    }
  });
});

/**
 * `env` and `xargs` run their command through execvp, on PATH, where no Bash builtin stands in:
 * `echo x | xargs` runs the `echo` first on PATH. With PATH through the work tree, that is the
 * repository's program.
 */
describe("builtin names run by env and xargs, with PATH through the work tree", () => {
  let sb: Sandbox;
  let context: BashContext;
  beforeAll(() => {
    sb = makeSandbox();
    const repo = makeRepo(sb, "repo");
    mkdirSync(join(repo, "bin"));
    for (const name of ["echo", "true", "printf", "test", "pwd", "kill"]) {
      writeFileSync(join(repo, "bin", name), `#!/bin/sh\n${touch(sb)}\n`);
      chmodSync(join(repo, "bin", name), 0o755);
    }
    context = { cwd: repo, env: { ...sb.env, PATH: `${join(repo, "bin")}:/usr/bin:/bin` } };
  });

  const COMMANDS = ["echo x | xargs", "xargs -a /dev/null", "printf x | xargs -0", "echo x | xargs -r", "echo | xargs -t", "env echo x", "env true", "env printf x", "env test -f x", "env pwd", "xargs -a /dev/null echo", "env -u X true", "ls | env xargs"];

  it.each(COMMANDS)("%s runs the repository's program under bash, and is not called read-only", (command) => {
    expectRunsProgramNotReadOnly(sb, context, command, context.env as Record<string, string>);
  });

  it("still calls the builtins Bash runs itself read-only here", () => {
    for (const command of ["echo x", "printf x", "true", "test -f x", "pwd"]) expect(fastPathVerdict(command, context)?.effect, command).toBe("read-only");
  });
});

/**
 * `..` after a symbolic link: chdir(2) — which git -C, env -C and `cd -P` use — takes it from the
 * link's target, so with `l -> evil/sub`, `l/..` is `evil`, a repository configured to run a
 * program, where the path read as text is the clean one it sits in.
 */
describe("git -C, env -C and cd -P through a symbolic link and ..", () => {
  let sb: Sandbox;
  let context: BashContext;
  beforeAll(() => {
    sb = makeSandbox();
    const outer = makeRepo(sb, "outer");
    const evil = makeRepo(sb, "outer/evil");
    git(sb, evil, ["config", "core.fsmonitor", `${touch(sb)}; false`]);
    mkdirSync(join(evil, "sub"));
    symlinkSync("evil/sub", join(outer, "l"));
    writeFileSync(join(outer, ".git", "info", "exclude"), "evil\nl\n");
    context = { cwd: outer, env: sb.env };
  });

  const COMMANDS = ["git -C l/.. status", "env -C l/.. git status", "cd -P l/.. && git status", "git -C ./l/../ status", "git --git-dir=l/../.git status", "ls; git -C l/.. status", "cd -P l && cd .. && git status"];

  it.each(COMMANDS)("%s runs the repository's program under bash, and is not called read-only", (command) => {
    expectRunsProgramNotReadOnly(sb, context, command);
  });

  it("still calls git read-only in the clean repository", () => {
    for (const command of ["git status", "git -C . status", "cd . && git log", "git -C nowhere/.. status"]) expect(fastPathVerdict(command, context)?.effect, command).toBe("read-only");
  });
});

/**
 * A relative RIPGREP_CONFIG_PATH is read from the directory rg runs in, which a `cd` or `env -C`
 * earlier in the line moves: there it can add `--pre=PROGRAM`. (rg is not needed: the arguments
 * the file adds are judged by the catalog.)
 */
describe("a relative RIPGREP_CONFIG_PATH after a move", () => {
  it("is read from every directory rg may run in", () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb, "repo");
    mkdirSync(join(repo, "sub"));
    writeFileSync(join(repo, "sub", ".ripgreprc"), "--pre=touch\n");
    const context: BashContext = { cwd: repo, env: { ...sb.env, RIPGREP_CONFIG_PATH: ".ripgreprc" } };
    expect(fastPathVerdict("rg x", context)?.effect).toBe("read-only");
    for (const command of ["cd sub && rg x", "cd sub; rg -n x f", "env -C sub rg x", "pushd sub && rg x"]) {
      expect(fastPathVerdict(command, context)?.effect, command).toBe("undecidable");
      expect(explainBashFullPath(command, context).effect, command).toBe("undecidable");
    }
  });
});
