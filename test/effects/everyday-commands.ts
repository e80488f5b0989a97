/**
 * Everyday read-only commands, in the style coding agents run them: exploring a repository,
 * reading files, inspecting history and archives, checking the system. Every one of them changes
 * nothing — `test/effects/recall.test.ts` runs each under real bash in a scratch repository
 * (RECALL_FIXTURE names what it holds) and checks that nothing there changed — so each one the
 * classifier does not call read-only is a recall miss, never a correct refusal.
 */
export const EVERYDAY: readonly string[] = [
  // looking around
  "ls", "ls -la", "ls -la src", "ls -lah", "ls -1 src | head -20", "ls -R docs", "ls src/*.ts", "ls -d */", "ls -lt | head",
  "pwd", "tree -L 2", "tree src", "du -sh .", "du -sh src docs", "du -h --max-depth=1 . | sort -h", "df -h .", "stat README.md",
  "file README.md", "file x.tgz", "wc -l src/*.ts", "wc -c package.json", "find . -name '*.ts' | head -20",
  "find . -type f -name '*.md'", "find src -type f | wc -l", "find . -maxdepth 2 -type d", "find . -name '*.ts' -not -path './node_modules/*'",
  "find . -newer package.json -type f", "find . -type f -size +1k", "find . -name '*.ts' -exec wc -l {} +", "find . -name '*.ts' -exec grep -l export {} \\;",
  "find src -type f -exec sha256sum {} + | sort", "find . -type f -exec head -1 {} \\;", "find . -empty", "find . -iname readme*",
  "realpath src/index.ts", "readlink -f src", "basename src/index.ts .ts", "dirname src/index.ts", "ls -la ~ | head -5",
  // reading files
  "cat README.md", "cat package.json", "head -20 src/index.ts", "head -n 5 README.md", "tail -n 20 src/util.ts", "tail -5 notes.txt",
  "cat -n src/index.ts", "nl src/util.ts", "sed -n '1,20p' src/index.ts", "sed -n '5p' README.md", "sed -n '/export/p' src/util.ts",
  "awk 'NR<=10' src/index.ts", "awk '{print $1}' data.csv", "awk -F, '{print $2}' data.csv", "awk 'END{print NR}' notes.txt",
  "cut -d, -f1 data.csv", "sort data.csv", "sort -u notes.txt", "sort -t, -k2 -n data.csv", "uniq -c notes.txt", "sort notes.txt | uniq -c | sort -rn",
  "tr a-z A-Z < notes.txt", "rev notes.txt", "column -t -s, data.csv", "head -c 100 package.json", "od -c notes.txt | head", "xxd README.md | head",
  "hexdump -C notes.txt | head -3", "strings x.tgz | head", "md5sum README.md", "sha1sum package.json", "sha256sum src/*.ts", "cksum notes.txt",
  "diff README.md docs/guide.md", "diff -u src/index.ts src/util.ts", "cmp README.md README.md", "comm -12 notes.txt notes.txt",
  "jq . package.json", "jq -r .name package.json", "jq '.scripts' package.json", "jq -r '.dependencies | keys[]' package.json", "cat data.json | jq '.items | length'",
  "yq '.name' config.yaml", "yq -r .version config.yaml", "base64 notes.txt", "fold -w 40 README.md", "expand src/index.ts | head", "paste -sd, notes.txt",
  "cat src/index.ts src/util.ts | wc -l", "grep -c '' notes.txt", "tac notes.txt", "fmt README.md",
  // searching
  "grep -rn TODO .", "grep -rn 'export function' src", "grep -r import src --include='*.ts'", "grep -l export src/*.ts", "grep -i readme README.md",
  "grep -n '^#' README.md", "grep -v '^$' notes.txt", "grep -E 'foo|bar' notes.txt", "grep -rl util src", "grep -c function src/util.ts",
  "grep -rn --exclude-dir=node_modules helper .", "grep -o '[a-z]*' notes.txt | sort | uniq", "egrep -n 'a|b' notes.txt", "fgrep -n '.' notes.txt",
  "grep -A3 -B3 export src/index.ts", "grep -w add src/util.ts", "grep -rn 'TODO\\|FIXME' src", "grep -q export src/index.ts && echo found",
  "rg TODO", "rg -n export src", "rg -l import", "rg --files", "rg --files | head", "rg -t ts function", "rg -i readme", "rg -c export src",
  "rg 'fn|function' src", "rg -w add", "rg --json export src | head -3", "rg -g '*.md' guide",
  // git: state and history
  "git status", "git status --short", "git status -sb", "git status --porcelain", "git diff", "git diff --stat", "git diff --cached",
  "git diff HEAD~1", "git diff HEAD~1 --stat", "git diff main..feature", "git diff --name-only HEAD~1", "git diff --name-status HEAD~1 HEAD",
  "git log", "git log --oneline", "git log --oneline -10", "git log -5 --format='%h %s'", "git log --graph --oneline --all",
  "git log --stat -1", "git log -p -1", "git log --author=t", "git log --since='1 week ago' --oneline", "git log -- src/index.ts",
  "git log --follow src/util.ts", "git log --pretty=format:'%h %an %s' -3", "git log @{u}..", "git log --oneline @{u}..HEAD", "git log HEAD@{1} -1",
  "git log main..feature --oneline", "git log --oneline --decorate", "git log -1 --format=%H", "git log --reverse --oneline | head -1",
  "git show", "git show --stat", "git show HEAD", "git show HEAD~1", "git show HEAD:src/index.ts", "git show HEAD~1:README.md | head",
  "git show stash@{0}", "git show stash@{0}:README.md", "git show v1.0", "git show --name-only HEAD", "git show -s --format=%ci HEAD",
  "git branch", "git branch -a", "git branch -v", "git branch --show-current", "git branch -r", "git branch --list 'feat*'", "git branch --merged",
  "git tag", "git tag -l", "git tag --list 'v*'", "git stash list", "git stash show", "git stash show -p", "git remote -v", "git remote",
  "git rev-parse HEAD", "git rev-parse --abbrev-ref HEAD", "git rev-parse --show-toplevel", "git rev-parse --git-dir", "git rev-parse --short HEAD",
  "git rev-list --count HEAD", "git rev-list HEAD | head", "git ls-files", "git ls-files src", "git ls-files | wc -l", "git ls-tree HEAD",
  "git ls-tree -r HEAD --name-only", "git cat-file -p HEAD", "git cat-file -t HEAD", "git blame src/index.ts", "git blame -L 1,5 README.md",
  "git shortlog -sn", "git describe --tags", "git describe --always", "git merge-base main feature", "git show-ref", "git for-each-ref",
  "git config --get user.name", "git config --list", "git config user.email", "git reflog", "git reflog -5", "git grep export",
  "git grep -n TODO", "git count-objects -v", "git name-rev HEAD", "git -C . status", "git --no-pager log -3", "git --no-pager diff",
  "git -c core.pager=cat log -3", "git -c color.ui=never diff --stat", "PAGER=cat git diff", "GIT_PAGER=cat git log --oneline",
  "git log --oneline | head -5", "git diff | head -50", "git status && git log -1", "git diff --stat && git status -s",
  "git rev-parse HEAD && git branch --show-current", "git log -1 --format=%s | cat", "git diff --check", "git whatchanged -1",
  // archives and compressed files
  "tar tf x.tar", "tar -tf x.tar", "tar -tzf x.tgz", "tar tvf x.tar", "tar -tvzf x.tgz | head", "tar --list --file=x.tar",
  "unzip -l x.zip", "unzip -Z1 x.zip", "unzip -Z -1 x.zip", "zipinfo x.zip", "unzip -p x.zip a.txt", "unzip -t x.zip",
  "gunzip -c x.gz", "gzip -dc x.gz", "gzip -l x.gz", "gzip -t x.gz", "zcat x.gz", "zcat x.gz | head", "xzcat x.xz", "bzcat x.bz2",
  "tar -tzf x.tgz | wc -l",
  // shell idioms
  "echo $HOME", "echo \"$PATH\" | tr : '\\n'", "printf '%s\\n' a b", "true", "test -f README.md && echo yes", "[ -d src ] && ls src",
  "[[ -e package.json ]] && echo ok", "test -n \"$HOME\"", "x=$(git rev-parse HEAD); echo $x", "branch=$(git branch --show-current); echo \"$branch\"",
  "count=$(wc -l < notes.txt); echo $count", "n=$(ls | wc -l)", "while read -r line; do echo \"$line\"; done < notes.txt",
  "while IFS= read -r f; do wc -l \"$f\"; done < <(ls src/*.ts)", "git ls-files | while read -r f; do wc -l \"$f\"; done", "read -r first < notes.txt; echo $first",
  "mapfile -t lines < notes.txt; echo ${#lines[@]}", "readarray -t files < notes.txt", "for f in src/*.ts; do wc -l \"$f\"; done",
  "for f in *.md; do head -1 \"$f\"; done", "if [ -f README.md ]; then cat README.md; fi", "cd src && ls", "cd src && cat index.ts | head",
  "cd docs && ls -la && cd ..", "(cd src && ls)", "{ cat README.md; cat notes.txt; } | wc -l", "ls src | grep index", "cat notes.txt | sort | head -3",
  "cat README.md 2>/dev/null", "ls nonexistent 2>/dev/null || echo missing", "ls > /dev/null && echo ok", "cat notes.txt | xargs echo",
  "ls src | xargs wc -l", "find . -name '*.md' | xargs grep -l guide", "git ls-files | xargs wc -l | tail -1", "echo ${HOME:-none}",
  "echo $((2 + 3))", "printf '%d\\n' 42", "seq 1 5", "seq 3 | paste -sd+", "date", "date +%Y-%m-%d", "date -u", "echo done",
  "sh -n script.sh", "bash -n script.sh", "type git", "command -v git", "which node", "which -a ls", "pushd src && ls && popd", "dirs",
  "set -e; ls", "set -o pipefail; git log | head -1", "shopt -s nullglob; ls *.md", "LC_ALL=C sort notes.txt", "LANG=C ls", "TZ=UTC date",
  // the system
  "uname -a", "uname -r", "whoami", "id", "id -u", "groups", "hostname", "uptime", "free -m", "nproc", "lscpu", "lscpu | head -5", "arch",
  "ps aux | head", "ps -ef | grep bash", "pgrep bash", "pidof bash", "env | sort | head", "printenv HOME", "printenv | grep PATH", "locale",
  "kill -l", "kill -l 9", "getent passwd root", "getent group root", "tty", "df -h", "du -sh ~ 2>/dev/null",
  // version queries
  "node --version", "node -v", "npm --version", "python3 --version", "git --version", "bash --version", "tsc --version", "make --version",
  // jq / text pipelines agents build
  "jq -r '.scripts | to_entries[] | .key' package.json", "cat package.json | jq .version", "grep -rn export src | wc -l",
  "git log --format='%an' | sort | uniq -c | sort -rn", "git diff --stat | tail -1", "ls -la | awk '{print $9}'", "wc -l src/*.ts | sort -n",
  "head -50 README.md | grep -n '#'", "sed -n '1,/^$/p' README.md", "awk '/export/ {print FILENAME\": \"$0}' src/*.ts", "cut -c1-80 README.md",
  "grep -rn 'import' src | cut -d: -f1 | sort -u", "find . -name '*.ts' | xargs grep -c export", "git status --porcelain | wc -l",
  "git log --oneline | wc -l", "git branch -a | grep feature", "git tag | sort -V | tail -1", "ls -la src && wc -l src/*.ts",
];

/** What the scratch repository holds, so that the commands above have something to read. */
export const RECALL_FIXTURE = "a git repository (main and feature branches, two commits, a tag v1.0, a stash, an upstream origin/main), README.md, package.json, notes.txt, data.csv, data.json, config.yaml, script.sh, src/*.ts, docs/guide.md, x.tar, x.tgz, x.zip, x.gz, x.xz, x.bz2";
