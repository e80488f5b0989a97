/**
 * The fast path (src/effects/bash/fast-path.ts) judges commands of plain and quoted words, and
 * pipelines and lists of them, without the parser.
 * Its proof: wherever it answers, its verdict — effect and reason — is the full path's, with and
 * without a repository context; over the corpus and over generated commands on its alphabet. And
 * it must answer for a good share of the corpus, or it would be dead weight passing this test.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { explainBash, explainBashFullPath, type BashContext } from "../../src/effects/bash/classify.js";
import { readOnlyCommandNames } from "../../src/effects/bash/commands.js";
import { fastPathCommands, fastPathVerdict } from "../../src/effects/bash/fast-path.js";
import { DEMOS, makeRepo, makeSandbox, removeSandboxes } from "../helpers/git-repos.js";
import { READ_ONLY, SIDE_EFFECTING, UNDECIDABLE } from "./classify-bash.corpus.js";

afterAll(removeSandboxes);

const CORPUS = [...READ_ONLY, ...SIDE_EFFECTING, ...UNDECIDABLE];

/** Contexts whose verdicts differ: a clean repository, a hostile one, PATH through the work tree, no repository. */
function contexts(): Array<[string, BashContext]> {
  const sb = makeSandbox();
  const clean = makeRepo(sb, "clean");
  const hostile = makeRepo(sb, "hostile");
  for (const key of ["core.fsmonitor", "diff.external", "core.hooksPath"]) DEMOS.find((d) => d.key === key)?.setup(sb, hostile);
  const outside = join(sb.root, "plain");
  mkdirSync(outside);
  const bin = join(clean, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "ls"), "#!/bin/sh\n");
  chmodSync(join(bin, "ls"), 0o755);
  return [
    ["a clean repository", { cwd: clean, env: sb.env }],
    ["a repository configured to run programs", { cwd: hostile, env: sb.env }],
    ["PATH through the work tree", { cwd: clean, env: { ...sb.env, PATH: `${bin}:.:${sb.env.PATH}` } }],
    ["no repository", { cwd: outside, env: sb.env }],
  ];
}
const CONTEXTS = contexts();

/** The fast path answers nothing, or exactly what the full path answers; `explainBash` is then the full path's verdict too. */
function agrees(command: string, context?: BashContext): boolean {
  const full = explainBashFullPath(command, context);
  expect(explainBash(command, context), command).toEqual(full);
  const fast = fastPathVerdict(command, context);
  if (fast === undefined) return false;
  expect(fast, command).toEqual(full);
  return true;
}

const ALPHABET = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:=+@%*?~"];
const NAMES = [
  ...readOnlyCommandNames(),
  "rm", "mv", "cp", "touch", "npm", "node", "sudo", "env", "xargs", "printf", "set", "shopt", "test", "cd", "pushd", "popd",
  "command", "break", "continue", ".", ":", "/usr/bin/git", "/bin/ls", "./run.sh", "bin/x", "kill", "fg", "unknown-tool",
  // go to the full path: reserved words and declarations, wherever they stand
  "if", "time", "coproc", "function", "in", "export", "declare", "local", "unset", "esac",
];
const GIT = ["status", "log", "diff", "show", "branch", "tag", "config", "commit", "push", "fetch", "stash", "rev-parse", "ls-files", "grep", "blame", "remote", "-c", "--no-pager", "-C", "help", "--version"];
const OPTIONS = [
  "-la", "-n", "-5", "-1", "--oneline", "--stat", "-i", "-o", "--output=o", "--outp=o", "-delete", "-exec", "-v", "-V", "-s", "-e", "-u", "-x",
  "-k", "-euo", "pipefail", "posix", "--", "-", "-p", "-z", "-l", "-d", "-D", "-r", "-rf", "--help", "--version", "-euxo", "--pre=x", "-fprint",
  "--set", "-I", "+x", "+e", "-vx", "--in-place", "-print", "-name", "-type", "-maxdepth", "core.pager=cat", "HEAD", "-w",
];
const FILES = ["src", "src/", ".", "..", "/", "/dev/null", "file.txt", "a.b.c", "a=b", "CC=gcc", "x+=y", "%1", "@x", "a,b", "a:b", "README.md", "0", "12", "2", "out", "nullglob", "dotglob", "errexit", "PATH"];

/** Inside quotes: the plain alphabet, spaces, and what quotes make literal (globs, separators, the other quote), with the characters only single quotes make literal. */
const QUOTABLE = [...ALPHABET, ..."      *?[]{}();|&<>#~^'\"$`\\!"];
const quote = (q: string, body: string) => `${q}${body.replaceAll(q, "")}${q}`;
/** A quoted part of a word, well formed or not: single or double quotes, empty, around an option, holding anything. */
const quoted = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom("'", '"'), fc.string({ unit: fc.constantFrom(...QUOTABLE), maxLength: 8 })).map(([q, body]) => quote(q, body)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom("'", '"'), fc.constantFrom(...OPTIONS, ...FILES, ...GIT, "", "*", "*.ts", ";", "|", "&&", "a b", " -n", "%H %s", "$x", "$(rm x)", "`rm x`", "a\\b", "!x", "#", "<(ls)", "> f"))
      .map(([q, body]) => quote(q, body)),
  },
  { weight: 1, arbitrary: fc.constantFrom("'", '"', "'a", '"a', "a'", "''''", '""""', `'"'`, `"'"`, "'\t'", '"\n"', "'é'") },
);
/** A word made of plain and quoted parts, adjacent: `a'b'"c"`, `--format='%H %s'`, `'-n'`. */
const mixed = fc
  .array(fc.oneof(quoted, fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 4 }), fc.constantFrom(...OPTIONS, "=", "==", "a==", "2", "-")), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(""));

const word = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...OPTIONS) },
  { weight: 3, arbitrary: fc.constantFrom(...FILES) },
  { weight: 2, arbitrary: fc.constantFrom(...GIT) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 8 }) },
  { weight: 2, arbitrary: quoted },
  { weight: 2, arbitrary: mixed },
);
const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 6 }) },
  // quoted names go to the full path
  { weight: 1, arbitrary: fc.oneof(quoted, fc.constantFrom(...NAMES).map((n) => `'${n}'`)) },
);
const spaces = fc.constantFrom(" ", " ", " ", "  ", "   ");
/** Redirections the fast path takes (to /dev/null, duplicating 1 and 2), and look-alikes it leaves to the full path. */
const REDIRECTS = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("2>/dev/null", ">/dev/null", "1>/dev/null", "&>/dev/null", "> /dev/null", "2>  /dev/null", "2>&1", "1>&2", ">&2") },
  { weight: 1, arbitrary: fc.constantFrom(">f", "2>&3", "3>/dev/null", ">>/dev/null", "2>/dev/nullx", "> /dev/null/x", ">&-", "2>&-", "<f", "&>f", ">/dev/stderr", "2>&1x", ">& 2") },
);
const simple = fc
  .tuple(
    name,
    fc.array(fc.tuple(spaces, word), { maxLength: 6 }),
    fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom(" ", " ", ""), REDIRECTS), { minLength: 1, maxLength: 2 }) }),
    fc.constantFrom("", "", "", "", "", "", "", "", "", " x", " -delete"),
  )
  .map(([n, rest, redirects, after]) => `${n}${rest.map(([s, w]) => `${s}${w}`).join("")}${redirects.map(([s, r]) => `${s}${r}`).join("")}${after}`);
/** Operators between commands: the four the fast path takes, with or without spaces, and their look-alikes it leaves to the full path. */
const OPERATORS = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("|", "||", "&&", ";", " | ", " || ", " && ", " ; ", "; ", " |") },
  { weight: 1, arbitrary: fc.constantFrom("&", " & ", "|&", ";;", ";&", "|||", "&&&", "| |", "; ;") },
);
/** Commands over the fast-path alphabet and quotes, mostly one, sometimes joined by operators; runs of spaces, sometimes at either end, or an operator at the end. */
const command = fc
  .tuple(
    fc.constantFrom("", "", " "),
    simple,
    fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(fc.tuple(OPERATORS, simple), { minLength: 1, maxLength: 3 }) }),
    fc.constantFrom("", "", "", "", "", "", " ", ";", " |", "&&"),
  )
  .map(([lead, first, rest, trail]) => `${lead}${first}${rest.map(([op, c]) => `${op}${c}`).join("")}${trail}`);

describe("the fast path", () => {
  it("answers as the full path does over the corpus, and answers for a good share of it", () => {
    const taken = CORPUS.filter((c) => agrees(c));
    expect(taken.length / CORPUS.length).toBeGreaterThanOrEqual(0.3);
    // Each kind of verdict is reached on the fast path, so none of them is compared vacuously.
    const effects = new Set(taken.map((c) => explainBashFullPath(c).effect));
    expect([...effects].sort()).toEqual(["read-only", "side-effecting", "undecidable"]);
  });

  it.each(CONTEXTS)("answers as the full path does over the corpus in %s", (_, context) => {
    const taken = CORPUS.filter((c) => agrees(c, context));
    expect(taken.length / CORPUS.length).toBeGreaterThanOrEqual(0.3);
  });

  it("answers as the full path does over generated commands on its alphabet", () => {
    let taken = 0;
    fc.assert(
      fc.property(command, (c) => {
        if (agrees(c)) taken++;
      }),
      { numRuns: 5000 },
    );
    expect(taken).toBeGreaterThan(1000);
  });

  it("answers as the full path does over generated commands in each context", () => {
    let taken = 0;
    fc.assert(
      fc.property(command, fc.constantFrom(...CONTEXTS), (c, [, context]) => {
        if (agrees(c, context)) taken++;
      }),
      { numRuns: 1500 },
    );
    expect(taken).toBeGreaterThan(300);
  });

  it("answers as the full path does for every short word, and every grammar token, as the name and as an argument", () => {
    // Letters and digits stand in for their classes, with the letters of the grammar's one-letter tokens.
    const chars = [..."a0oAEKLPQUku_-./,:=+@%"];
    const words: string[] = [];
    let layer = [""];
    for (let n = 1; n <= 3; n++) {
      layer = layer.flatMap((w) => chars.map((c) => w + c));
      words.push(...layer);
    }
    const require = createRequire(import.meta.url);
    const nodeTypes = JSON.parse(readFileSync(require.resolve("tree-sitter-bash/src/node-types.json"), "utf8")) as Array<{ type: string; named: boolean }>;
    const tokens = nodeTypes.filter((t) => !t.named && /^[A-Za-z0-9_\-./,:=+@%]+$/.test(t.type)).map((t) => t.type);
    expect(tokens).toContain("==");
    let taken = 0;
    for (const w of [...words, ...tokens]) for (const c of [`${w} x`, `${w} a=b b%J`, `x ${w}`, `ls ${w} y`, `x|${w}`, `${w}&&x ${w}`]) if (agrees(c)) taken++;
    expect(taken).toBeGreaterThan(words.length);
  });

  it("answers as the full path does for every short word of globs, tildes and their neighbours", () => {
    const chars = [..."a0-.=:/*?~'"];
    const words: string[] = [];
    let layer = [""];
    for (let n = 1; n <= 3; n++) {
      layer = layer.flatMap((w) => chars.map((c) => w + c));
      words.push(...layer);
    }
    let taken = 0;
    for (const w of words) for (const c of [`ls ${w}`, `x ${w} y`, `find . -name ${w}`, `ls|x ${w}`]) if (agrees(c)) taken++;
    expect(taken).toBeGreaterThan(words.length);
  });

  it("answers as the full path does for every printable character in quotes, and for quoted forms of the words it handles", () => {
    let taken = 0;
    for (let code = 0x20; code < 0x7f; code++) {
      const ch = String.fromCharCode(code);
      for (const q of ["'", '"']) {
        for (const c of [`ls ${q}${ch}${q}`, `ls a${q}${ch}${q}b`, `sed -n ${q}1${ch}2p${q} f`, `find . -name ${q}*${ch}${q}`, `git log --format=${q}%H${ch}%s${q}`, `grep ${q}-${ch}${q} f`, `rm ${q}${ch}${q}`, `echo ${q}${ch} ${ch}${q}`]) {
          if (agrees(c)) taken++;
        }
      }
    }
    for (const w of [...OPTIONS, ...FILES, ...GIT]) {
      for (const c of [`ls '${w}'`, `ls "${w}"`, `git '${w}' x`, `find . "${w}"`, `sed ${w.slice(0, 1)}'${w.slice(1)}' f`, `git log -'${w}'`, `x ''"${w}"''`]) if (agrees(c)) taken++;
    }
    expect(taken).toBeGreaterThan(1000);
  });

  it("answers as the full path does for each harmless redirection, and its look-alikes, wherever it stands", () => {
    const forms = ["2>/dev/null", ">/dev/null", "1>/dev/null", "&>/dev/null", "> /dev/null", "2> /dev/null", "&> /dev/null", "2>&1", "1>&2", ">&2"];
    const near = ["2>/dev/nul", "2>/dev/null/", "2>/dev/nullx", "2>&12", "2>&1x", "0>/dev/null", "3>&1", ">&1", "2>&-", ">>/dev/null", "2>'/dev/null'", ">/dev/zero"];
    let taken = 0;
    for (const r of [...forms, ...near]) {
      for (const c of [`ls ${r}`, `ls -la ${r}`, `${r} ls`, `ls ${r} x`, `find . ${r} -delete`, `git ${r} push`, `ls ${r}|wc`, `ls ${r};ls`, `ls ${r} && rm x`, `ls ${r}&&ls`, `ls ${r} ${r}`, `rm x ${r}`, `ls x${r}`, `ls ${r}x`]) {
        if (agrees(c)) taken++;
      }
    }
    expect(taken).toBeGreaterThan(60);
  });

  it("leaves to the full path every character and word outside its reach", () => {
    for (const c of ["ls & wc", "ls |& wc", "ls ;; x", "ls ;& x", "ls | | x", "| ls", "ls |", "ls;", "ls && ; x", "ls && if x", "ls; a=b x", "ls\nls", "ls\tx", "a=b ls", "ls 2>/dev/null x", "2>/dev/null ls", "ls >f", "ls 2>&1&&ls", "ls < f", "x+=1 ls", "~ x", "l* x", "? x", "ls =~a", "ls ==a", "ls [a]", "ls #x", "echo $x", "'ls' a", "l's' a", "ls 'a", 'ls "$x"', 'ls "`x`"', 'ls "\\x"', 'ls "!x"', "ls 'a\tb'", "ls 'a\nb'", "ls 'é'", "ls 'if'", 'ls "export"',
      // found by the generators: tree-sitter-bash splits `=='a'` into `==` and `'a'`, and keeps no content for `" "`
      "xargs =='a'", "ls =='a'", 'printf " "-la', `git "  "'.D'`, 'ls " "', "ls \\x", "ls {a,b}", "! ls", "time ls", "ls if", "export a=b", "echo esac", "echo é", "a@ x", "a+: x", "a% x", "x ==", "- a=b", ": x"]) {
      expect(fastPathCommands(c), c).toBeUndefined();
    }
    const plain = (...ws: string[]) => ws.map((w) => ({ text: w, value: w }));
    expect(fastPathCommands("  git  log   --oneline -5 ")).toEqual([plain("git", "log", "--oneline", "-5")]);
    expect(fastPathCommands("ls|wc -l && git status ; cat a || pwd")).toEqual([plain("ls"), plain("wc", "-l"), plain("git", "status"), plain("cat", "a"), plain("pwd")]);
    expect(fastPathCommands(`git log --format='%H %s' a'b'"c" '' "" "a;b|c"`)).toEqual([[
      ...plain("git", "log"),
      { text: "--format='%H %s'", value: "--format=%H %s" },
      { text: `a'b'"c"`, value: "abc" },
      { text: "''", value: "" },
      { text: '""', value: "" },
      { text: '"a;b|c"', value: "a;b|c" },
    ]]);
  });
});
