/**
 * The tool grammars against the real programs. fast-check composes sed scripts, awk programs,
 * git inspection commands and xargs inputs from pieces that write (`w PWNED`, `print > "PWNED"`,
 * `--output=…`, an item `-o`), run commands (`e touch PWNED`, `system()`, pipes, `--textconv`,
 * signature checks) or only read, in random orders, flag orders and separators. Every command
 * the classifier calls read-only is then run by the real bash, sed, awk, git and xargs in a
 * directory of its own; a file that appears or changes there fails the test.
 *
 * A fixed seed keeps CI reproducible; PROCTOR_FC_SEED picks another. A failure lists the seed
 * and every command that changed its directory, with the verdict's reason.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { explainBash } from "../../src/safety.js";

const SEED = Number(process.env.PROCTOR_FC_SEED ?? 20261203);
/** PROCTOR_ORACLE_PATH puts other awks (a gawk build, busybox) in front of the system's. */
const PATH = [process.env.PROCTOR_ORACLE_PATH, "/usr/local/bin:/usr/bin:/bin"].filter(Boolean).join(":");
const INPUT = "a/b]c\nx y 3\n1 2 3\nlast line\n";
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Quote a word for bash. */
const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** Run `command` under bash in a fresh directory holding only `in`; what changed there. */
function effects(command: string, stdin = "in\n"): string[] {
  return effectsOfAll([{ command, stdin }])[0];
}

/**
 * Run each command under one bash process, each in its own directory holding only `in` (and
 * its standard input beside the directory); for each, the files that appeared or changed.
 * One bash for the whole batch keeps thousands of cases within seconds.
 */
function effectsOfAll(cases: readonly { command: string; stdin?: string }[], template?: string): string[][] {
  const root = mkdtempSync(join(tmpdir(), "proctor-grammar-"));
  dirs.push(root);
  const script: string[] = [];
  const baseline = template ? readdirSync(template) : ["in"];
  cases.forEach((c, i) => {
    mkdirSync(join(root, String(i)));
    writeFileSync(join(root, String(i), "in"), INPUT);
    writeFileSync(join(root, `stdin-${i}`), c.stdin ?? "in\n");
    const copy = template ? `cp -a ${template}/. ${root}/${i}/ && ` : "";
    script.push(`( ${copy}cd ${root}/${i} && eval ${q(c.command)} ) < ${root}/stdin-${i} > /dev/null 2>&1`);
  });
  const run = spawnSync("bash", ["--norc", "--noprofile", "-c", script.join("\n")], {
    cwd: root,
    timeout: 120_000,
    env: { PATH, HOME: root, LC_ALL: "C" },
    stdio: "ignore",
  });
  // A batch cut short would leave later cases unrun, which would look like a pass.
  if (run.error || run.signal) throw new Error(`the oracle batch did not finish (${run.error?.message ?? run.signal}); a generated command may loop`);
  const stray = readdirSync(root).filter((f) => !/^(\d+|stdin-\d+)$/.test(f));
  return cases.map((_, i) => {
    const dir = join(root, String(i));
    const changed = readdirSync(dir).filter((f) => f !== "in" && !baseline.includes(f)).sort();
    if (readFileSync(join(dir, "in"), "utf8") !== INPUT) changed.push("in (modified)");
    return i === 0 ? [...changed, ...stray.map((f) => `../${f}`)] : changed;
  });
}

function has(program: string): boolean {
  return spawnSync("bash", ["-c", `command -v ${program}`], { stdio: "ignore", env: { PATH } }).status === 0;
}

/**
 * Soundness on `numRuns` generated cases: every one classified read-only is run, and must leave
 * its directory as it found it. Returns how many were read-only, so a test can show it is not vacuous.
 */
function sound(cases: fc.Arbitrary<{ command: string; stdin?: string }>, numRuns: number, template?: string): number {
  const sample = fc.sample(cases, { seed: SEED, numRuns });
  const readOnly = sample.filter((c) => explainBash(c.command).effect === "read-only");
  if (process.env.PROCTOR_FC_VERBOSE) console.log(`${readOnly.length}/${numRuns} read-only`);
  const results = effectsOfAll(readOnly, template);
  const failures = readOnly
    .map((c, i) => ({ command: c.command, stdin: c.stdin, changed: results[i], reason: explainBash(c.command).reason }))
    .filter((f) => f.changed.length > 0);
  expect(failures, `seed ${SEED}`).toEqual([]);
  return readOnly.length;
}

// ---- sed ------------------------------------------------------------------------------------

const SED_ADDRESS = ["", "", "1", "$", "/a/", "\\%x%", "1,2", "0,/a/", "1~2", "2,+1", "/a/I", "/[/]/"];
const TEXT = ["hello", "x;w PWNED", "y\\", "z\\\\", "a}b", "#c", " w PWNED", "\\", ""];
const S_FLAGS = ["g", "p", "2", "I", "m", "e", " "];

const sedFlags = fc
  .tuple(fc.subarray(S_FLAGS), fc.boolean())
  .chain(([flags, write]) => fc.shuffledSubarray(flags, { minLength: flags.length, maxLength: flags.length }).map((f) => f.join("") + (write ? "w PWNED" : "")));

const sedCommand: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("p", "d", "=", "l", "h", "G", "x", "n", "N", "F", "z", "q", "y/ab/ba/", "r in", "R in", "bEND", "tEND", "{p}", "{s/a/b/;p}", "# note w PWNED"),
  fc.constantFrom("w PWNED", "W PWNED", "e touch PWNED", "s/.*/touch PWNED/e", "w /dev/stdout"),
  sedFlags.map((f) => `s/a/X/${f}`),
  sedFlags.map((f) => `s|[|]|X|${f}`),
  fc.tuple(fc.constantFrom("a", "i", "c"), fc.constantFrom(" ", "\\\n", "\\", ""), fc.constantFrom(...TEXT)).map(([c, sep, t]) => `${c}${sep}${t}`),
);

const sedStatement = fc
  .tuple(fc.constantFrom(...SED_ADDRESS), fc.constantFrom("", "!", " ! "), fc.constantFrom("", " "), sedCommand)
  .map(([a, bang, sp, c]) => (a === "" ? `${sp}${c}` : `${a}${bang}${sp}${c}`));

const sedScript = fc
  .tuple(fc.array(sedStatement, { minLength: 1, maxLength: 4 }), fc.array(fc.constantFrom(";", "\n", " ; ", "\n\n"), { minLength: 4, maxLength: 4 }))
  .map(([stmts, seps]) => `${stmts.map((s, i) => (i === 0 ? s : `${seps[i]}${s}`)).join("")}\n:END`);

const sedLine = fc
  .tuple(sedScript, fc.constantFrom("-n", "-n -s", "-E", "--posix", "", "-z"), fc.boolean())
  .map(([script, opts, asE]) => `sed ${opts} ${asE ? `-e ${q(script)}` : q(script)} in`);

// ---- awk ------------------------------------------------------------------------------------

const AWK_PATTERN = ["", "NR==1", "$1 > 1", "/a/", "/a\\/b/", "$0 ~ /x/", "length($0) >= 2", "NR > 1 && NR < 3", "!/b/"];
const AWK_SAFE = [
  "print $1", "print $1, $2", 'printf "%s\\n", $0', "n++", "x = $1 > 2", 'if ($1 > 1) print "big"', 'print "a>b|c"',
  's = "x" "y"', "print length($0)/2", "print ($1+1)/2", 'getline l < "in"', 'print $0 > "/dev/stderr"',
  "# comment | x > y", "print", 'print 1 >= 2', "y = (2 > 1) ? 3 : 4",
];
const AWK_BAD = [
  'print $0 > "PWNED"', 'print $0 >> "PWNED"', 'printf "x" > "PWNED"', 'print | "cat > PWNED"', 'system("touch PWNED")',
  '"touch PWNED" | getline x', 'print $1,\n "x" > "PWNED"', 'print (1 > 2) > "PWNED"', 'print 1 > "PWN" "ED"',
  'f = "PWNED"; print 1 > f', 'print > "/dev/stderr" "PWNED"', 'print $0 > "-"', 'printf "%s", $1 >> "/dev/stdout"',
];
/** Option forms, some of which other awks read differently (the one true awk ignores what it does not know). */
const AWK_OPTIONS = [
  "", "-F' '", "-v n=0 --", "-W interactive", "--sandbox", "-S", "--posix", "-e 'BEGIN{}'", "--source='BEGIN{}'",
  `--assign ${q('x=system("touch PWNED")')}`, `-W ${q('random=system("touch PWNED")')}`, "-W exec", "-Wv", "--lint", "-W source='BEGIN{}'",
];
const awkAction = fc
  .tuple(fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...AWK_SAFE) }, { weight: 1, arbitrary: fc.constantFrom(...AWK_BAD) }), { minLength: 1, maxLength: 3 }), fc.constantFrom("; ", "\n", ";"))
  .map(([stmts, sep]) => stmts.join(sep));
const awkItem = fc
  .tuple(fc.constantFrom(...AWK_PATTERN, "BEGIN", "END"), awkAction, fc.boolean())
  .map(([p, a, bare]) => (bare && p !== "BEGIN" && p !== "END" && p !== "" ? p : `${p} { ${a} }`));
const awkProgram = fc.array(awkItem, { minLength: 1, maxLength: 3 }).map((items) => items.join("\n"));

// Token soup: random sequences of the characters and tokens the parsers treat specially. Most
// are syntax errors (sed and awk then run nothing); the rest probe where a region this parser
// skips (text, a regex, a string, a comment) ends. No labels or `D`, so nothing can loop.
const SED_SOUP = ["s", "/", ";", "\n", "\\", "{", "}", "[", "]", "a", "w", "W", " ", "e", "#", "!", "p", "X", "1", "$", ",", "y", "g", "i", "c", "r", "\\\n", "|", "%", "I", "~", "+"];
const sedSoup = fc.array(fc.constantFrom(...SED_SOUP), { minLength: 1, maxLength: 16 }).map((parts) => `sed -n ${q(parts.join(""))} in`);

const AWK_SOUP = [
  "print", "printf", ">", ">>", "|", '"P"', '"x\\""', "/", "/a/", "/[/]/", "(", ")", ",", ";", "\n", "\\\n", "#", "{", "}",
  "x", "1", "$1", "getline", "<", "system", "if", "else", "++", "--", "=", "==", "!", "~", "?", ":", "&&", "||", " ", "[", "]",
];
const awkSoup = (awk: string) =>
  fc
    .tuple(fc.array(fc.constantFrom(...AWK_SOUP), { minLength: 1, maxLength: 14 }), fc.boolean())
    .map(([parts, begin]) => (begin ? `${awk} ${q(`BEGIN { ${parts.join(" ")} }`)} in` : `${awk} ${q(parts.join(""))} in`));

// ---- xargs ----------------------------------------------------------------------------------

const XARGS_COMMANDS = ["grep -l a", "wc -l", "cat", "head -n1", "sort", "uniq", "file", "ls", "git log", "find", "sed -n p", "awk 1", "tee", "tail -n1", "cut -c1", "stat", "echo", "tr a b"];
const XARGS_OPTIONS = ["", "-n 1", "-0", "-r", "-t", "-n 2 -P 2", "-L 1", "-d ,"];
const ITEMS = ["-o", "PWNED", "in", "--output=PWNED", "-fprint", "-exec", "touch", "-i", "--pre=touch", "-C", "-z", "-delete", "{}", "-w"];
const xargsCase = fc.tuple(fc.constantFrom(...XARGS_OPTIONS), fc.constantFrom(...XARGS_COMMANDS), fc.array(fc.constantFrom(...ITEMS), { minLength: 1, maxLength: 4 }));

// ---- git ------------------------------------------------------------------------------------

/**
 * A repository where the programs git can be made to run are scripts that leave a PWNED-* file:
 * a textconv driver and a smudge filter on a.txt, gpg.program (HEAD has a signature header),
 * core.pager and diff.external. Only options reach them here — the pool keeps to commands that
 * run none of them by default (what configuration runs on its own is the repository-aware check's).
 */
function gitTemplate(): string {
  const dir = mkdtempSync(join(tmpdir(), "proctor-git-template-"));
  dirs.push(dir);
  const sh = `
set -e
git init -q .
git config user.email a@example.com; git config user.name A
printf '#!/bin/sh\ntouch "PWNED-$(basename "$0")"\ncat >/dev/null 2>&1\nexit 0\n' > mark; chmod +x mark
for n in tc smudge gpg pager ext; do cp mark mark-$n; done
printf 'a.txt diff=tc filter=fl\n' > .gitattributes
echo hello > a.txt; git add a.txt .gitattributes; git commit -qm one
echo more >> a.txt; git commit -qam two
git config diff.tc.textconv ./mark-tc; git config filter.fl.smudge ./mark-smudge; git config gpg.program ./mark-gpg
git config core.pager ./mark-pager; git config diff.external ./mark-ext
tree=$(git rev-parse 'HEAD^{tree}'); parent=$(git rev-parse HEAD)
sha=$(printf 'tree %s\nparent %s\nauthor A <a@example.com> 0 +0000\ncommitter A <a@example.com> 0 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nsigned\n' "$tree" "$parent" | git hash-object -t commit -w --stdin)
git update-ref HEAD "$sha"
`;
  execFileSync("bash", ["-c", sh], { cwd: dir, env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" }, stdio: "ignore" });
  return dir;
}

const GIT_COMMANDS = ["log -1", "show -s", "cat-file -p", "cat-file blob", "diff-tree -p", "grep", "rev-list -1", "-p log -1", "--no-pager log -1", "for-each-ref"];
const GIT_OPERANDS: Record<string, string> = { "show -s": "HEAD", "cat-file -p": "HEAD:a.txt", "cat-file blob": "HEAD:a.txt", "diff-tree -p": "HEAD~2 HEAD~1", grep: "hello", "rev-list -1": "HEAD" };
const GIT_OPTIONS = [
  "--show-signature", "--format=%G?", "--format=%H", "--pretty=format:%GS", "--pretty=oneline", "--format=%h%x20%s",
  "--textconv", "--filters", "--ext-diff", "--output=PWNED-out", "--outp=PWNED-out", "-O./mark-pager",
  "--open-files-in-pager=./mark-pager", "--oneline", "--no-textconv", "--no-ext-diff", "-n1", "--name-only", "-i",
];
const gitCase = fc
  .tuple(fc.constantFrom(...GIT_COMMANDS), fc.array(fc.constantFrom(...GIT_OPTIONS), { maxLength: 3 }))
  .map(([sub, opts]) => ({ command: `git ${sub} ${opts.join(" ")} ${GIT_OPERANDS[sub.replace(/^(-p|--no-pager) /, "")] ?? ""}`.replace(/\s+/g, " ").trim() }));

// `awk` is whatever the machine has (mawk on Debian); the others by name when installed.
const awks = ["awk", "mawk", "gawk", "original-awk"].filter(has);

describe("tool grammars against the real programs", () => {
  it("the oracle sees a write and a command run (it can fail)", () => {
    expect(effects("sed -n 'w PWNED' in")).toEqual(["PWNED"]);
    expect(effects("sed -n 's/.*/touch PWNED/e' in")).toEqual(["PWNED"]);
    expect(effects(`awk ${q('{ print > "PWNED" }')} in`)).toEqual(["PWNED"]);
    expect(effects(`awk ${q('BEGIN { system("touch PWNED") }')}`)).toEqual(["PWNED"]);
    expect(effects("xargs sort", "-o\nPWNED\n")).toEqual(["PWNED"]);
    expect(effects("sed -i s/a/b/ in")).toEqual(["in (modified)"]);
  });

  it("sed: no script called read-only writes or runs anything under GNU sed", () => {
    expect(execFileSync("sed", ["--version"], { encoding: "utf8" })).toMatch(/GNU sed/);
    const readOnly = sound(sedLine.map((command) => ({ command })), 500);
    expect(readOnly).toBeGreaterThan(100); // the property is not vacuous
  });

  it("has an awk to check against", () => expect(awks).toContain("awk"));
  it.each(awks)("awk: no program called read-only writes or runs anything under %s", (awk) => {
    const lines = fc.tuple(awkProgram, fc.constantFrom(...AWK_OPTIONS)).map(([program, opts]) => `${awk} ${opts} ${q(program)} in`);
    const readOnly = sound(lines.map((command) => ({ command })), 500);
    expect(readOnly).toBeGreaterThan(100);
  });

  it("sed and awk token soup: whatever parses and is called read-only writes and runs nothing", () => {
    sound(sedSoup.map((command) => ({ command })), 500);
    for (const awk of awks) sound(awkSoup(awk).map((command) => ({ command })), 400);
  });

  it("git: no inspection command called read-only runs a configured program or writes", () => {
    const template = gitTemplate();
    // The repository does run the scripts when asked to (the oracle can fail).
    expect(effectsOfAll([{ command: "git log -1 --show-signature" }, { command: "git cat-file --textconv HEAD:a.txt" }, { command: "git grep -O./mark-pager hello" }], template)).toEqual([
      ["PWNED-mark-gpg"], ["PWNED-mark-smudge", "PWNED-mark-tc"], ["PWNED-mark-pager"],
    ]);
    expect(sound(gitCase, 150, template)).toBeGreaterThan(20);
  });

  it("xargs: no pipeline called read-only writes or runs anything, whatever the items", () => {
    const cases = xargsCase.map(([opts, command, items]) => ({
      command: `xargs ${opts} ${command}`.replace(/\s+/g, " "),
      stdin: opts.includes("-0") ? items.join("\0") : opts.includes("-d ,") ? items.join(",") : `${items.join("\n")}\n`,
    }));
    expect(sound(cases, 300)).toBeGreaterThan(40);
  });
});
