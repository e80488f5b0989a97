/**
 * The tool grammars (src/effects/bash/tools/): each row is a command line and the verdict its
 * grammar must give, with the option or construct the reason must name. The property tests
 * beside this file check the same grammars against the real programs.
 */
import { describe, expect, it } from "vitest";
import { innermostCommand, isInertVariable } from "../../src/effects/bash/commands.js";
import { explainBash } from "../../src/safety.js";

type Row = readonly [command: string, effect: "read-only" | "side-effecting" | "undecidable", reason?: RegExp];

function table(name: string, rows: readonly Row[]): void {
  describe(name, () => {
    it.each(rows.map((r) => [r[0].replace(/⏎/g, "\n"), r[1], r[2]] as const))("%s → %s", (command, effect, reason) => {
      const v = explainBash(command);
      expect(v.effect, v.reason).toBe(effect);
      if (reason) expect(v.reason).toMatch(reason);
    });
  });
}

table("sed", [
  ["sed -n '1,20p' f", "read-only"],
  ["sed -n -e '/start/,/end/{s/x/y/;p}' f", "read-only"],
  ["sed '0,/re/d;1~2p;3,+4d;\\%re%d;5,~4p' f", "read-only"],
  ["sed '/a/I,/b/M!{p}' f", "read-only"],
  ["sed ':a;N;$!ba;s/\\n/ /g' f", "read-only"],
  ["sed '1{h;d};G' f", "read-only"],
  ["sed 'y/abc/xyz/' f", "read-only"],
  ["sed -l 5 -n l f", "read-only"],
  ["sed 's/a/b/ # comment' f", "read-only"],
  ["sed --debug -z -E -s --posix -u p f", "read-only"],
  ["sed 'r /etc/hosts' f", "read-only"],
  ["sed 'R in;w out' f", "read-only"], // the file name runs to the end of the line
  ["sed 'w /dev/stdout' f", "read-only"],
  ["sed 'a\\⏎foo;w x' f", "read-only"], // text, not a command
  ["sed 'a foo\\⏎w x' f", "read-only"], // a continued one-liner
  ["sed '1i\\  indented' f", "read-only"],
  ["sed -n -- p \"$f\"", "read-only"],
  ["sed --sandbox 'w x' f", "read-only"],
  ["sed s/a/b/ -- -i", "read-only"],
  ["sed --help", "read-only"],
  ["sed 's/a/b/gw f' x", "side-effecting", /writes the file f \(the `w` flag of `s`\)/],
  ["sed 's/x/y/3w f' x", "side-effecting", /the `w` flag/],
  ["sed 's/a/b/ w f' x", "side-effecting", /the `w` flag/],
  ["sed 's/a/b/Iw f' x", "side-effecting", /the `w` flag/],
  ["sed 'a foo\\\\⏎w x' f", "side-effecting", /writes the file x \(`w`\)/], // an escaped backslash ends the text
  ["sed ':a w x' f", "side-effecting", /`w`/], // a label ends at a blank
  ["sed 'bx;W x⏎:x' f", "side-effecting", /`W`/],
  ["sed '2!w o' f", "side-effecting"],
  ["sed -e 's/a/b/' --expression='s/c/d/w o' x", "side-effecting", /writes the file o/],
  ["sed -ni p f", "side-effecting", /`sed -i` rewrites/],
  ["sed -in p f", "side-effecting", /`sed -i` rewrites/],
  ["sed --in-pl p f", "side-effecting", /`sed --in-place` rewrites/],
  ["sed p f -i", "side-effecting", /`sed -i`/], // GNU getopt reads options after operands
  ["sed 's/a/b/pe' x", "undecidable", /the `e` flag of `s`/],
  ["sed 's/a/b/ep' x", "undecidable", /the `e` flag of `s`/],
  ["sed 'e ls' f", "undecidable", /runs a shell command \(`e`\)/],
  ["sed '1e' f", "undecidable", /\(`e`\)/],
  ["sed -f s.sed f", "undecidable", /`sed -f` reads its script/],
  ["sed --file=s.sed f", "undecidable", /`sed --file`/],
  ["sed 's/a/b/;L' f", "undecidable", /the command `L`/],
  ["sed 's/[/]/X/' f", "undecidable", /bracket expression/],
  ["sed 's/[\\]/w x/' f", "undecidable"],
  ["sed '{p' f", "undecidable", /unmatched/],
  ["sed p \"$f\"", "undecidable", /computed at run time/],
  ["sed \"$s\" f", "undecidable", /computed at run time/],
  ["sed --frobnicate p f", "undecidable", /`sed --frobnicate` is not an option/],
  ["sed --s p f", "undecidable", /ambiguous/],
  ["gsed -i s/a/b/ f", "side-effecting", /`sed -i`/],
  ["sed -l 's/a/b/w f' in", "undecidable", /BSD sed/],
  // GNU sed compiles each -e as it reads it: --version/--help exit after, --sandbox covers only later scripts.
  ["sed --version -e 'w out'", "read-only"],
  ["sed -e 'w out' --version", "side-effecting", /writes the file out/],
  ["sed -e 'w out' --help", "side-effecting", /writes the file out/],
  ["sed --sandbox -e 'w out' f", "read-only"],
  ["sed -e 'w out' --sandbox f", "side-effecting", /writes the file out/],
  ["sed --sandbox 'w out' --posix f", "read-only"], // the operand script is compiled after every option
  ["sed 'w out' --sandbox f", "side-effecting"], // with POSIXLY_CORRECT, --sandbox after the script is a file
  ["sed 'w out' -e p f", "side-effecting", /writes the file out/], // POSIXLY_CORRECT: `w out` is the script
]);

table("awk", [
  ["awk '{print $1}' f", "read-only"],
  ["awk -F: '{print $1}' /etc/passwd", "read-only"],
  ["awk '$3 > 100' f", "read-only"],
  ["awk '$3 > 100 {print $1}' f", "read-only"],
  ["awk 'length($0) >= 80' f", "read-only"],
  ["awk '{print ($1+$2)/2}' f", "read-only"],
  ["awk '{print $1, $2 > \"/dev/stderr\"}' f", "read-only"],
  ["awk 'BEGIN{while ((getline l < \"f\") > 0) print l}'", "read-only"],
  ["awk '/a\\/b/ {n++} END {print n}' f", "read-only"],
  ["awk '{a[$1]+=$2} END{for (k in a) print k, a[k]}' f", "read-only"],
  ["awk -v x=1 '{print x}' f", "read-only"],
  ["awk -e 'BEGIN{print 1}' f", "read-only"], // `f` read as a program too: a pattern
  ["mawk -W interactive '{print}' f", "read-only"],
  ["mawk -Wv", "read-only"],
  ["gawk --sandbox 'BEGIN{system(\"x\")}'", "read-only"],
  ["awk '{print $1 > \"out\"}' f", "side-effecting", /`print … >`/],
  ["awk '{print $1 >> \"out\"}' f", "side-effecting", /`print … >>`/],
  ["awk '{print $1,⏎ $2 > \"o\"}' f", "side-effecting", /`print … >`/], // a line break after a comma continues
  ["awk '{printf \"%s\", $1 > \"/dev/stderr\" \"x\"}' f", "side-effecting"], // a concatenated name
  ["awk '{print > \"-\"}' f", "side-effecting", /`print … >`/], // mawk writes a file named "-" (found by the oracle)
  ["awk '{print}' /inet/tcp/0/example.com/80", "side-effecting", /network/],
  ["awk 'BEGIN { getline line < \"/inet/tcp/0/example.com/80\" }'", "side-effecting", /\/inet/],
  ["awk -p f '{print}'", "side-effecting", /`awk -p` writes/],
  ["gawk --dump-variables '{print}' f", "side-effecting", /--dump-variables/],
  ["awk -W dump-v '{print}' f", "side-effecting", /dump-variables/],
  ["awk 'BEGIN{system(\"x\")}'", "undecidable", /system\(\)/],
  ["awk 'BEGIN{awk::system(\"x\")}'", "undecidable", /system\(\)/],
  ["awk --source='BEGIN{system(\"x\")}' '{print}'", "undecidable", /system\(\)/],
  ["gawk -e 'BEGIN{system(\"x\")}' f", "undecidable", /system\(\)/],
  ["awk -W source='BEGIN{system(\"x\")}' f", "undecidable", /system\(\)/],
  ["awk -W source='BEGIN{}' 'BEGIN{system(\"x\")}'", "undecidable", /system\(\)/], // mawk ignores -W source and runs the operand
  ["awk --sandbox 'BEGIN{system(\"x\")}'", "undecidable", /system\(\)/], // the one true awk ignores --sandbox
  ["mawk -W sandbox 'BEGIN{system(\"x\")}'", "undecidable", /system\(\)/], // mawk ignores -W sandbox
  ["mawk -W exec f", "undecidable", /-W exec/],
  ["mawk -We f", "undecidable", /-W exec/],
  ["mawk -W v,e f", "undecidable", /-W exec/],
  ["awk -f p.awk f", "undecidable", /`awk -f`/],
  ["gawk -i lib '{print}' f", "undecidable", /`gawk -i`/],
  ["gawk --load=x '{print}' f", "undecidable", /--load/],
  ["gawk -E p.awk f", "undecidable", /`gawk -E`/],
  ["awk '{print | \"sh\"}' f", "undecidable", /`\|`/],
  ["awk '{\"date\" | getline d}' f", "undecidable", /`\|`/],
  ["gawk '{print |& \"sh\"}' f", "undecidable", /`\|&`/],
  ["awk '{@f()}' f", "undecidable", /`@`/],
  ["gawk '@include \"x\"' f", "undecidable", /`@`/],
  ["awk 'BEGIN{getline l < f}'", "undecidable", /getline </],
  ["awk 'BEGIN{getline l < \"/in\" \"et/tcp/0/h/80\"}'", "undecidable", /getline </],
  ["awk 'BEGIN{ARGV[1]=\"/inet/tcp/0/h/80\"; ARGC=2} {print}'", "side-effecting", /\/inet/],
  ["awk 'BEGIN{ARGV[1]=x} {print}'", "undecidable", /ARGV/],
  ["gawk 'BEGIN{PROCINFO[\"sorted_in\"]=\"f\"}'", "undecidable", /sorted_in/],
  ["awk '/[/]/' f", "undecidable", /bracket/],
  ["awk '{ if (x) /re/ }' f", "undecidable", /division or as a regex/],
  ["awk '{print}' \"$f\"", "undecidable", /computed at run time/],
  ["awk \"$prog\" f", "undecidable", /computed at run time/],
  ["awk -W frob '{print}' f", "undecidable", /not an option/],
  // The one true awk ignores options it does not know, so their values can become its program.
  ["awk -W 'random=system(\"x\")' f", "undecidable", /system\(\)/],
  ["awk --assign 'x=system(\"x\")' '{print}' f", "undecidable", /system\(\)/],
  ["awk --source='BEGIN{}' 'BEGIN{system(\"x\")}'", "undecidable", /system\(\)/],
  ["gawk --source='BEGIN{}' data.txt", "read-only"],
  ["awk -e 'BEGIN{print 1}' data.txt", "undecidable", /does not tokenize/],
]);

table("git", [
  ["git -C sub status", "read-only"],
  ["git --git-dir=.git --work-tree=. log -1", "read-only"],
  ["git -p log -1", "read-only"],
  ["git --no-pager --no-optional-locks diff --stat", "read-only"],
  ["git --list-cmds=main", "read-only"],
  ["git --help", "read-only"],
  ["git log --pretty=oneline", "read-only"],
  ["git log --format='%H %an %s' -3", "read-only"],
  ["git log --pretty='format:%h'", "read-only"],
  ["git for-each-ref --format='%(refname)' refs/heads", "read-only"],
  ["git branch --format='%(refname:short)'", "read-only"],
  ["git cat-file -p HEAD", "read-only"],
  ["git diff --no-index a b", "read-only"],
  ["git log -h", "read-only"],
  ["git -C \"$d\" status", "undecidable", /`git -C` gets/],
  ["git --git-dir \"$g\" log", "undecidable", /`git --git-dir` gets/],
  ["git -c core.pager=x log", "undecidable", /`git -c`/],
  ["git --config-env=core.pager=P log", "undecidable", /--config-env/],
  ["git --exec-path=/tmp status", "undecidable", /--exec-path/],
  ["git --super-prefix=x status", "undecidable", /--super-prefix/],
  ["git log --help", "undecidable", /`git log --help` runs man/],
  ["git diff --he", "undecidable", /runs man/],
  ["git help log", "undecidable", /`git help`/],
  ["git --help log", "undecidable", /runs man/],
  ["git show --textconv HEAD:x", "undecidable", /`git show --textconv`/],
  ["git cat-file --filters HEAD:x", "undecidable", /`git cat-file --filters`/],
  ["git cat-file --textconv HEAD:x", "undecidable", /`git cat-file --textconv`/],
  ["git blame --textconv f", "undecidable", /--textconv/],
  ["git diff --ext-diff", "undecidable", /--ext-diff/],
  ["git diff --ext", "undecidable", /--ext-diff/],
  ["git log --show-signature -1", "undecidable", /--show-signature/],
  ["git log --remerge-diff", "undecidable", /--remerge-diff/],
  ["git log --format='%H %G?' -1", "undecidable", /gpg/],
  ["git show -s --pretty='format:%GS'", "undecidable", /gpg/],
  ["git for-each-ref --format='%(signature:grade)'", "undecidable", /gpg/],
  ["git log --pretty=myalias", "undecidable", /alias from configuration/],
  ["git tag -v v1", "undecidable", /gpg/],
  ["git verify-commit HEAD", "undecidable", /gpg/],
  ["git verify-tag v1", "undecidable", /gpg/],
  ["git grep -O foo", "undecidable", /`git grep -O`/],
  ["git grep --open foo", "undecidable", /--open-files-in-pager/],
  ["git log --output=x", "side-effecting", /--output/],
  ["git diff --outp x", "side-effecting", /--output/],
  ["git archive -o x.tar HEAD", "side-effecting"],
  ["git bundle create b HEAD", "side-effecting"],
  ["git --frob status", "side-effecting", /not an option/],
]);

table("xargs", [
  ["ls | xargs grep -l TODO", "read-only"],
  ["xargs wc -l < list", "read-only"],
  ["find . -name '*.ts' | xargs cat", "read-only"],
  ["xargs -0 -n 1 -P 4 grep -n foo", "read-only"],
  ["xargs -a list -r -t head -n1", "read-only"],
  ["xargs", "read-only"], // runs echo
  ["xargs rm", "undecidable", /runs rm with arguments from its input/],
  ["xargs sort", "undecidable", /`sort` gets the argument/], // an item `-o` then a file name writes
  ["xargs uniq", "undecidable"], // two items make `uniq IN OUT`
  ["xargs file", "undecidable"], // an item `-z` runs decompressors
  ["xargs git log", "undecidable"],
  ["xargs sh -c 'echo $0'", "undecidable", /`sh` runs other commands/],
  ["xargs -i sh -c 'echo {}'", "undecidable"],
  ["xargs -I X X -l", "undecidable", /named by its input/],
  ["xargs --process-slot-var=PATH grep x", "undecidable", /--process-slot-var/],
  ["xargs \"$c\" x", "undecidable", /computed at run time/],
  ["xargs --frob grep x", "undecidable", /not an option/],
  ["xargs --show-limits grep x", "read-only"],
  ["xargs --show-limits rm", "undecidable", /runs rm/], // --show-limits prints, then runs the command
  ["xargs --version rm", "read-only"],
  ["xargs -I X sort", "read-only"], // no X in the arguments: nothing is appended
  ["xargs -I X -L1 sort", "undecidable", /`sort` gets the argument/], // -L cancels -I: items are appended
  ["xargs -I X -n2 sort", "undecidable"],
  ["xargs -L1 -I X sort", "read-only"], // -I after -L cancels -L
]);

table("env and version queries", [
  ["env", "read-only"],
  ["env ls", "read-only"],
  ["env LC_ALL=C sort f", "read-only"],
  ["env -i LANG=C.UTF-8 TZ=Europe/Paris grep x f", "read-only"],
  ["env -u PAGER git log -1", "read-only"],
  ["env -C /tmp ls", "read-only"],
  ["env -- ls -la", "read-only"],
  ["env - TERM=dumb ls", "read-only"],
  ["env FOO=1 ls", "undecidable", /FOO, which is not a variable proctor knows to be inert/],
  ["env PAGER=cat git log", "undecidable", /PAGER/],
  ["env LC_ALL=/tmp/x ls", "undecidable", /LC_ALL/], // a path glibc loads locale data from
  ["env -S 'ls -l'", "undecidable", /`env -S`/],
  ["env --split-string='ls -l'", "undecidable", /--split-string/],
  ["env -a rm coreutils", "undecidable", /-a/],
  ["env -C \"$d\" ls", "undecidable", /computed at run time/],
  ["env rm x", "side-effecting", /`env` runs rm/],
  ["env sh -c ls", "undecidable"],
  ["node --version", "read-only"],
  ["python3 --version", "read-only"],
  ["python3 -V", "read-only"],
  ["npm --version", "read-only"],
  ["npm ls", "side-effecting", /~\/\.npm/], // a debug log and an update-check stamp, measured
  ["npm ls --all --depth 2 --json", "side-effecting"],
  ["npm root -g", "side-effecting"],
  ["npm view react", "side-effecting"],
  ["tsc --version", "read-only"],
  ["java -version", "read-only"],
  ["git --version", "read-only"],
  ["node --version --eval 'x'", "undecidable"],
  ["node -e 1", "undecidable"],
  ["python3 -c 'print(1)'", "undecidable"],
  ["npm ls --foo", "side-effecting"],
  ["npm test", "side-effecting"],
  ["tsc -p .", "side-effecting"],
  ["go version", "side-effecting"], // go.mod's toolchain line can make go download one
  ["cargo --version", "side-effecting"], // rustup may install the pinned toolchain
]);

table("other tools", [
  ["yq '.a' f.yaml", "read-only"],
  ["yq e -o json '.a' f.yaml", "read-only"],
  ["yq -i '.a = 1' f.yaml", "side-effecting", /`yq -i`/],
  ["yq --inplace '.a = 1' f.yaml", "side-effecting", /--inplace/],
  ["yq -s '.a' f.yaml", "side-effecting", /`yq -s` writes/],
  ["yq --split-exp '.a' f.yaml", "side-effecting", /--split-exp/],
  ["yq --frob f.yaml", "undecidable", /not an option/],
  ["xq -i '.a' f.xml", "side-effecting", /`yq -i`/],
  ["jq --rawfile a f '.x' g.json", "read-only"],
  ["diff -u a b", "read-only"],
  ["diff -l a b", "undecidable", /`diff -l`/],
  ["diff --pag a b", "undecidable", /--paginate/],
  ["file x", "read-only"],
  ["file -z x.gz", "undecidable", /`file -z`/],
  ["file --uncompress x.gz", "undecidable", /--uncompress/],
  ["rg -z foo", "undecidable", /`rg -z`/],
  ["rg --search-zip foo", "undecidable", /--search-zip/],
  ["rg --pre=x foo", "undecidable", /--pre/],
  ["sort --compress-program=gzip f", "undecidable", /--compress-program/],
  ["less f", "undecidable", /pager/],
  ["more f", "undecidable", /pager/],
  ["man ls", "undecidable", /pager/],
  ["tar -tf x.tar", "read-only"],
  ["tar -xf x.tar", "side-effecting", /`tar -x`/],
  ["unzip -l x.zip", "read-only"],
  ["unzip -p x.zip a.txt", "read-only"],
  ["unzip x.zip", "side-effecting", /extracts/],
  ["unzip -o x.zip", "side-effecting", /`unzip -o`/],
  ["unzip -l x.zip -d out", "side-effecting", /where unzip extracts/],
  ["unzip -l x.zip -x a.txt", "read-only"],
  ["unzip x.zip -l", "side-effecting", /member name to extract/], // no option after the archive
  ["unzip -Z1 x.zip", "read-only"],
  ["unzip -Z -l x.zip a", "read-only"],
  ["unzip -Z -M x.zip", "side-effecting", /zipinfo/], // -M pages
  ["unzip -Z x.zip -1", "side-effecting"], // after the archive, a member name
  ["xxd -ps in", "read-only"],
  ["xxd -cols 8 in", "read-only"],
  ["xxd -c8 -g 2 in -", "read-only"],
  ["xxd -ps in out", "side-effecting", /`out`/], // -ps is -p, not -p -s (which would take `in`)
  ["xxd in -u", "side-effecting", /`-u`/], // no option after the input file
  ["xxd -- *", "undecidable", /may add the file xxd writes/],
  ["uniq -f 1 -c in", "read-only"],
  ["uniq -- *", "undecidable", /several words/],
  ["uniq in -- out", "side-effecting"],
  ["curl https://example.com", "side-effecting", /network/],
  ["zgrep x f.gz", "undecidable", /PATH/],
  ["fd -l foo", "undecidable", /`fd -l`/],
  ["fd -e ts", "read-only"],
]);

describe("isInertVariable", () => {
  it.each([
    ["LC_ALL", "C", true],
    ["LANG", "en_US.UTF-8", true],
    ["TZ", "Europe/Paris", true],
    ["TERM", "dumb", true],
    ["NO_COLOR", "1", true],
    ["COLUMNS", "200", true],
    ["LC_ALL", "/tmp/locale", false],
    ["TZ", "../../x", false],
    ["TERM", "../x", false],
    ["LC_ALL", undefined, false],
    ["PAGER", "cat", false],
    ["GIT_PAGER", "cat", false],
    ["LESSOPEN", "|x %s", false],
    ["LD_PRELOAD", "x.so", false],
    ["BASH_ENV", "x", false],
    ["PATH", "/usr/bin", false],
    ["IFS", " ", false],
    ["GIT_DIR", ".git", false],
  ] as const)("%s=%s → %s", (name, value, inert) => {
    expect(isInertVariable(name, value)).toBe(inert);
  });
});

describe("innermostCommand", () => {
  const words = (...v: string[]) => v.map((value) => ({ value, text: value }));
  it("looks through env and xargs to the command they run", () => {
    expect(innermostCommand("env", words("-u", "PAGER", "LC_ALL=C", "git", "log"))).toEqual({ name: "git", args: words("log") });
    expect(innermostCommand("/usr/bin/env", words("xargs", "-0", "git", "grep", "x")).name).toBe("git");
    expect(innermostCommand("xargs", words("-n", "1", "git", "show")).args).toHaveLength(2); // `show` and the items
    expect(innermostCommand("git", words("status"))).toEqual({ name: "git", args: words("status") });
  });
});
