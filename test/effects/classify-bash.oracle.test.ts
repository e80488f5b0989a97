/**
 * The execution oracle: payloads that write (`touch PWNED`, `>PWNED`, `rm -rf keep`) are composed
 * into random shell contexts — substitutions, here-documents, expansion operators, quoting inside
 * expansions, continuations, control characters, comments, builtins that evaluate text, loops —
 * nested, with random whitespace and random characters spliced in. Every command the classifier
 * calls read-only is then run under the real `bash -c` in a fresh directory, which must be left
 * exactly as it was. Many contexts make the payload inert (single quotes, a quoted here-document),
 * so plenty of generated commands are read-only and really run.
 *
 * A fixed seed keeps CI reproducible; a second run takes a fresh seed, printed with any failure
 * (`ORACLE_SEED=<n>` replays it, `ORACLE_RUNS=<n>` scales either run).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { classifyBash } from "../../src/safety.js";
import { runUnderBash } from "./classify-bash.execute.js";

const PAYLOADS = ["touch PWNED", ">PWNED", "rm -rf keep", ": >PWNED", "rm keep/file", "'touch' PWNED", "to''uch PWNED", "\\rm -r keep", "mkdir PWNED"];

type Context = (p: string) => string;
const q = (p: string) => `'a[$(${p})]'`;

/** Contexts that run, or might run, their payload; grouped by the class of trick. */
const CONTEXTS: Record<string, readonly Context[]> = {
  plain: [(p) => p, (p) => `ls; ${p}`, (p) => `ls && ${p}`, (p) => `false || ${p}`, (p) => `ls | ${p}`, (p) => `(${p})`, (p) => `{ ${p}; }`, (p) => `! ${p}`, (p) => `${p} 2>/dev/null`],
  substitution: [(p) => `echo $(${p})`, (p) => `echo "$(${p})"`, (p) => `echo \`${p}\``, (p) => `echo "\`${p}\`"`, (p) => `echo \`echo \\\`${p}\\\`\``, (p) => `echo "\`echo \\\`${p}\\\`\`"`, (p) => `ls "$( ${p} )"`, (p) => `cat $(${p}) f`],
  heredoc: [
    (p) => `cat <<EOF\n$(${p})\nEOF`,
    (p) => `cat <<EOF\n  $(${p})\nEOF`,
    (p) => `cat <<EOF\n\t$(${p})\nEOF`,
    (p) => `cat <<-EOF\n\t$(${p})\n\tEOF`,
    (p) => `cat <<-EOF\n\t\`${p}\`\n\tEOF`,
    (p) => `cat <<EOF\n\${x:-$(${p})}\nEOF`,
    (p) => `cat <<EOF\n EOF\n$(${p})\nEOF`,
    (p) => `cat <<'EOF'\n EOF\n${p}\nEOF`,
    (p) => `cat <<-EOF\n\tEOF\n${p}\nEOF`,
    (p) => `cat <<-'EOF'\n\tEOF\n${p}\nEOF`,
    (p) => `cat <<EOF\nEOF \n${p}\nEOF`,
    (p) => `cat <<'EOF'\n$(${p})\nEOF`,
    (p) => `cat <<"EOF"\n$(${p})\nEOF`,
    (p) => `cat <<E\\OF\n$(${p})\nEOF`,
    (p) => `cat <<EOF | cat\n$(${p})\nEOF`,
    (p) => `cat <<A <<B\n$(${p})\nA\nB`,
    (p) => `cat <<'A' <<B\nA\n$(${p})\nB`,
    (p) => `cat <<EOF\nx\\\nEOF\n$(${p})\nEOF`,
    (p) => `cat <<'EOF'\nx\\\nEOF\n${p}\nEOF`,
    (p) => `cat <<EOF; ${p}\nhi\nEOF`,
    (p) => `cat <<'EOF' && ls\n$(${p})\nEOF\nls`,
    (p) => `echo "$(cat <<'EOF'\n$(${p})\nEOF\n)"`,
  ],
  expansion: [
    ...["%", "%%", "#", "##", "/", "//", "/#", "/%", ",", ",,", "^", "^^", ":-", "-", ":+", "+", ":?", "?"].flatMap((op): Context[] => [
      (p) => `echo "\${HOME${op}$(${p})}"`,
      (p) => `echo \${HOME${op}$(${p})}`,
      (p) => `echo "\${x${op}$(${p})}"`,
      (p) => `echo \${PWD${op}\`${p}\`}`,
    ]),
    (p) => `echo "\${HOME/a/$(${p})}"`,
    (p) => `echo "\${x:-'$(${p})'}"`,
    (p) => `echo \${x:-'$(${p})'}`,
    (p) => `echo "\${HOME:+'$(${p})'}"`,
    (p) => `echo "\${x:-"$(${p})"}"`,
    (p) => `echo "\${x:-\\"$(${p})\\"}"`,
    (p) => `echo \${x:-\`${p}\`}`,
    (p) => `echo \${HOME//<(${p})}`,
    (p) => `echo "\${HOME//>(${p})}"`,
    (p) => `echo \${x:->(${p})}`,
    (p) => `cat <(${p}) f`,
  ],
  arithmetic: [
    (p) => `echo $(( '$(${p})' ))`,
    (p) => `echo $(( $(${p}) ))`,
    (p) => `echo $(("$(${p})"))`,
    (p) => `echo $[ $(${p}) ]`,
    (p) => `(( $(${p}) ))`,
    (p) => `echo \${HOME:$(${p})}`,
    (p) => `echo \${a[$(${p})]}`,
    (p) => `echo \${#a[$(${p})]}`,
    (p) => `echo $((1+2)) '$(${p})'`,
  ],
  continuation: [(p) => `echo "$\\\n(${p})"`, (p) => `echo $\\\n(${p})`, (p) => `echo "\\\n$(${p})"`, (p) => `ls \\\n; ${p}`, (p) => `echo \${\\\nHOME%$(${p})}`, (p) => `echo '\\\n' ${p}`],
  control: [(p) => `ls \r# ; ${p}`, (p) => `ls \f# ; ${p}`, (p) => `ls \v# ; ${p}`, (p) => `ls\r# ; ${p}`, (p) => `ls \u00a0# ; ${p}`, (p) => `ls #\r\n${p}`, (p) => `ls \x1b# ; ${p}`],
  quoting: [
    (p) => `echo \\'$(${p})\\'`,
    (p) => `echo "'$(${p})'"`,
    (p) => `echo '"'$(${p})'"'`,
    (p) => `echo \\"'$(${p})'\\"`,
    (p) => `echo $'\\'' $(${p})`,
    (p) => `echo $'a\\'b' '$(${p})'`,
    (p) => `echo $"$(${p})"`,
    (p) => `echo {a,$(${p})}`,
    (p) => `cat <<< "$(${p})"`,
    (p) => `cat <<< '$(${p})'`,
    (p) => `echo \${a[@]:$(${p})}`,
    (p) => `ls\${IFS}#;${p}`,
    (p) => `(ls)#;${p}`,
    (p) => `$(ls)#;${p}`,
    (p) => `ls;# '\n${p}`,
    (p) => `ls&#;${p}`,
  ],
  comment: [(p) => `ls # $(${p})`, (p) => `ls #\\\n${p}`, (p) => `ls # '\n${p}`, (p) => `ls # ${p}`, (p) => `ls \\# ; ${p}`, (p) => `ls a# ; ${p}`, (p) => `ls "#" ; ${p}`],
  builtin: [
    (p) => `printf -v ${q(p)} x`,
    (p) => `printf -v${q(p)} x`,
    (p) => `printf -- -v ${q(p)}`,
    (p) => `printf '%d' ${q(p)}`,
    (p) => `test -v ${q(p)}`,
    (p) => `[ -v ${q(p)} ]`,
    (p) => `[[ -v ${q(p)} ]]`,
    (p) => `test ${q(p)} -eq 0`,
    (p) => `[[ ${q(p)} -eq 0 ]]`,
    (p) => `set -- ${q(p)}; [[ $1 -eq 0 ]]`,
    (p) => `set -- ${q(p)}; test -v "$1"`,
    (p) => `: ${q(p)}; [[ $_ -eq 0 ]]`,
    (p) => `: ${q(p)}; [[ _ -lt 1 ]]`,
    (p) => `: ${q(p)}; echo "\${!_}"`,
    (p) => `: ${q(p)}; echo $(( _ ))`,
    (p) => `: ${q(p)}; echo $((_ + 1))`,
    (p) => `: ${q(p)}; echo "\${HOME:_}"`,
    (p) => `: ${q(p)}; echo "\${HOME:$_:1}"`,
    (p) => `: ${q(p)}; echo "\${a[_]}"`,
    (p) => `: ${q(p)}; test -v "$_"`,
    (p) => `set -- '$(${p})'; echo "\${1@P}"`,
    (p) => `: '$(${p})'; echo "\${_@P}"`,
    (p) => `echo ${q(p)}`,
    (p) => `let ${q(p)}`,
    (p) => `declare -i v=${q(p)}`,
    (p) => `eval '${p}'`,
    (p) => `trap '${p}' EXIT`,
    (p) => `set -k; ls BASH_ENV=x; ${p}`,
    (p) => `mapfile -C '${p};:' -c 1 < f`,
    (p) => `shopt -s expand_aliases; ls; ${p}`,
  ],
  loop: [
    (p) => `for f in a b; do ${p}; done`,
    (p) => `for f in $(${p}); do ls; done`,
    (p) => `for f in ${q(p)}; do [[ $f -eq 1 ]]; done`,
    (p) => `for f in ${q(p)}; do echo $((f)); done`,
    (p) => `for f in ${q(p)}; do echo "$f"; done`,
    (p) => `for f in *; do wc -l "$f"; done; ${p}`,
    (p) => `while false; do ${p}; done; ls`,
    (p) => `if true; then ${p}; fi`,
    (p) => `if ${p}; then ls; fi`,
    (p) => `for ((i=0; i<1; i++)); do ${p}; done`,
    (p) => `select x in a; do ${p}; done`,
  ],
};

/** Contexts in which Bash leaves the payload as text: the classifier may call these read-only, and then they run. */
const INERT: readonly Context[] = [
  (p) => `echo '$(${p})'`,
  (p) => `echo '\`${p}\`'`,
  (p) => `echo '${p}'`,
  (p) => `ls # ${p}`,
  (p) => `ls # '$(${p})'`,
  (p) => `echo \\$(${p})`,
  (p) => `echo "\\$(${p})"`,
  (p) => `grep -c '${p}' f`,
  (p) => `grep -n -- '$(${p})' f`,
  (p) => `cat <<'EOF'\n${p}\nEOF`,
  (p) => `cat <<'EOF'\n  $(${p})\nEOF`,
  (p) => `cat <<-'EOF'\n\t$(${p})\n\tEOF`,
  (p) => `cat <<"EOF"\n\t\`${p}\`\nEOF`,
  (p) => `echo $'$(${p})'`,
  (p) => `: '$(${p})'`,
  (p) => `printf '%s\\n' '$(${p})'`,
  (p) => `[[ x == '$(${p})' ]]`,
  (p) => `for f in '$(${p})'; do echo "$f"; done`,
  (p) => `for f in 'a[$(${p})]'; do echo "$f"; done`,
  (p) => `if true; then echo '$(${p})'; fi`,
  (p) => `echo "\${HOME}" '$(${p})'`,
  (p) => `set -e; echo '${p}'`,
  (p) => `test -n '$(${p})'`,
  (p) => `cat f | grep -v '${p}'`,
];

const ALL_CONTEXTS = [...Object.values(CONTEXTS).flat(), ...INERT];
const INERT_FROM = ALL_CONTEXTS.length - INERT.length;
const SPLICE = ["\\\n", "'", '"', "\\", " ", "\n", "`", "#", "$", "(", ")", "{", "}", ";", "\t", "<<", "<", ">", "<(", "$'", "${", "!"];

/** A context applied to a payload, possibly inside another context. */
const nested: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...PAYLOADS),
    // Inert contexts are drawn often, so that a good share of commands is read-only and really runs.
    fc.array(fc.oneof({ arbitrary: fc.integer({ min: 0, max: ALL_CONTEXTS.length - 1 }), weight: 3 }, { arbitrary: fc.integer({ min: INERT_FROM, max: ALL_CONTEXTS.length - 1 }), weight: 2 }), { minLength: 1, maxLength: 3 }),
  )
  .map(([payload, contexts]) => contexts.reduce((inner, c) => ALL_CONTEXTS[c](inner), payload));

/** Random whitespace, and up to three splices anywhere: a character inserted (a quote, a continuation, …) or one deleted. */
const composed: fc.Arbitrary<string> = fc
  .tuple(nested, fc.array(fc.constantFrom(" ", "  ", "\t"), { minLength: 8, maxLength: 8 }), fc.array(fc.tuple(fc.nat(), fc.option(fc.constantFrom(...SPLICE), { freq: 4 })), { maxLength: 3 }))
  .map(([text, blanks, splices]) => {
    let k = 0;
    let out = text.replace(/ /g, () => blanks[k++ % blanks.length]);
    for (const [n, insert] of splices) {
      const at = n % (out.length + 1);
      out = insert === null ? out.slice(0, at) + out.slice(at + 1) : out.slice(0, at) + insert + out.slice(at);
    }
    return out;
  });

/** Shell soup: tokens that matter to quoting, expansion and here-documents, in any order. */
const SOUP = ["ls", "echo", "cat", " ", " ", "\t", "\n", "'", '"', "\\", "\\\n", "$(", "$((", "${HOME", "${x", ":-", "%", "#", "}", ")", "(", "`", "<<EOF", "<<-EOF", "<<'EOF'", "EOF", "\tEOF", ";", "|", "&&", "<", ">", "$'", "<(", "a[", "]", "touch PWNED", ">PWNED", "rm -rf keep", "test -v", "[[", "]]", "-eq", "$_", "$1", "for f in", "do", "done", "if", "then", "fi"];
const soup: fc.Arbitrary<string> = fc.array(fc.constantFrom(...SOUP), { minLength: 2, maxLength: 14 }).map((tokens) => tokens.join(""));

const hostile: fc.Arbitrary<string> = fc.oneof({ arbitrary: composed, weight: 4 }, { arbitrary: soup, weight: 1 });

const RUNS = Number(process.env.ORACLE_RUNS ?? 4);
const BATCH = 700;

const tally = { generated: 0, ran: 0 };

async function noReadOnlyCommandWrites(commands: readonly string[]): Promise<void> {
  const readOnly = commands.filter((c) => classifyBash(c) === "read-only");
  tally.generated += commands.length;
  tally.ran += readOnly.length;
  const findings = await runUnderBash(readOnly);
  expect(findings.map((f) => ({ command: f.command, after: f.after })), `${readOnly.length} read-only of ${commands.length}`).toEqual([]);
}

describe("classifyBash against real bash", () => {
  afterAll(() => console.info(`execution oracle: ${tally.generated} hostile commands, ${tally.ran} called read-only and run under bash`));

  it("the oracle sees a write (so it can fail)", async () => {
    const findings = await runUnderBash(["ls", "touch PWNED", "rm -rf keep", "cat <<EOF\n$(: >PWNED)\nEOF"]);
    expect(findings.map((f) => f.command)).toEqual(["touch PWNED", "rm -rf keep", "cat <<EOF\n$(: >PWNED)\nEOF"]);
  });

  it("composes read-only commands that really run", () => {
    const sample = fc.sample(hostile, { numRuns: 2000, seed: 11 });
    const readOnly = sample.filter((c) => classifyBash(c) === "read-only");
    // The oracle proves nothing if the classifier refuses everything it is shown.
    expect(readOnly.length).toBeGreaterThan(200);
  });

  const runs: Array<[string, number]> = [["a fixed seed", 20261203]];
  const fresh = Number(process.env.ORACLE_SEED ?? Date.now() % 2 ** 31);
  runs.push([`a fresh seed (${fresh}; replay with ORACLE_SEED=${fresh})`, fresh]);
  for (const [label, seed] of runs) {
    it(`never calls a command read-only when bash changes files with it — ${label}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hostile, { minLength: BATCH, maxLength: BATCH }), noReadOnlyCommandWrites),
        { seed, numRuns: RUNS, endOnFailure: true },
      );
    }, 300_000); // seconds on a quiet machine; a loaded one, or ORACLE_RUNS=50, needs room
  }
});
