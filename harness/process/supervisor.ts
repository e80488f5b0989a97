/**
 * The supervisor: a tiny shell process, in its own session, holding a pipe from the driving
 * process. The driver tells it which process groups, run tags and temp dirs are live; when the
 * pipe closes without a goodbye — the driver died, even by SIGKILL, which no handler sees — it
 * kills those groups and tagged processes (SIGTERM, then SIGKILL) and removes the dirs.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Writable } from "node:stream";

/**
 * The supervisor's program, a POSIX shell script: it starts in about a millisecond, where a node
 * process would spend a tenth of a second of CPU booting beside the agent CLI it guards. Lines on
 * stdin: `+g <pgid> <tag> [<start>]`, `-g <pgid>`, `+d <dir>`, `-d <dir>`, `bye` (a clean exit: the
 * driver cleaned up itself). Before a group kill it checks that the leader pid, if it still exists,
 * is the run's leader — it carries the tag, or it started at `<start>` (clock ticks after boot, as
 * /proc/<pid>/stat says, readable where the environment may not be): a leader that exited and was
 * never reaped (its parent, the driver, died first, and no init reaps orphans) has an empty
 * environment, yet holds its pid, so its group is still the run's. A reused pid is never
 * signalled, even one whose environment cannot be read. Tagged processes are found by their
 * environment in /proc (where there is none, the group kill is all there is). The lists are
 * newline-framed strings (`\n<entry>\n…`): paths and tags never hold a newline, since the
 * protocol itself is one line per message. Argument 1 is the grace between SIGTERM and SIGKILL,
 * in seconds.
 */
export const SUPERVISOR_PROGRAM = `
PATH=/usr/bin:/bin:/usr/sbin:/sbin
trap '' INT HUP
nl='
'
groups=$nl
dirs=$nl
clean=0
grace=$1
drop_group() {
  case $groups in
    *"$nl$1 "*) rest=\${groups#*"$nl$1 "}; groups=\${groups%%"$nl$1 "*}$nl\${rest#*"$nl"} ;;
  esac
}
drop_dir() {
  case $dirs in
    *"$nl$1$nl"*) dirs=\${dirs%%"$nl$1$nl"*}$nl\${dirs#*"$nl$1$nl"} ;;
  esac
}
tagged() {
  for f in $(grep -lzxF -- "PROCTOR_RUN_TAG=$1" /proc/[0-9]*/environ 2>/dev/null); do
    pid=\${f#/proc/}; pid=\${pid%/environ}
    [ "$pid" = "$$" ] || echo "$pid"
  done
}
leader_is_ours() {
  [ -e "/proc/$1" ] || return 0
  grep -qzxF -- "PROCTOR_RUN_TAG=$2" "/proc/$1/environ" 2>/dev/null
  found=$?
  [ $found != 0 ] || return 0
  if [ -z "$3" ]; then [ $found = 2 ]; return; fi
  want=$3
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  saved=$IFS; IFS=' '; set -- \${stat##*") "}; IFS=$saved
  [ "\${20}" = "$want" ]
}
signal_all() {
  for entry in $groups; do
    pgid=\${entry%% *}; tag=\${entry#* }; since=\${tag#* }; tag=\${tag%% *}
    [ "$since" != "$tag" ] || since=
    leader_is_ours "$pgid" "$tag" "$since" && kill -s "$1" -- "-$pgid" 2>/dev/null
    for pid in $(tagged "$tag"); do kill -s "$1" "$pid" 2>/dev/null; done
  done
}
while IFS= read -r line; do
  case $line in
    "+g "*) entry=\${line#+g }; drop_group "\${entry%% *}"; groups=$groups$entry$nl ;;
    "-g "*) drop_group "\${line#-g }" ;;
    "+d "*) drop_dir "\${line#+d }"; dirs=$dirs\${line#+d }$nl ;;
    "-d "*) drop_dir "\${line#-d }" ;;
    bye) clean=1 ;;
  esac
done
if [ $clean = 1 ] || { [ "$groups" = "$nl" ] && [ "$dirs" = "$nl" ]; }; then exit 0; fi
IFS=$nl
signal_all TERM
sleep "$grace"
signal_all KILL
signal_all KILL
signal_all KILL
set -f
for dir in $dirs; do rm -rf -- "$dir"; done
exit 0
`;

/** The driver's end of the pipe: messages are dropped once it is closed or when no supervisor could start. */
export interface Supervisor {
  send(line: string): void;
  /** The supervisor's pid (for tests); undefined when it could not start. */
  readonly pid: number | undefined;
}

/** Start the supervisor, detached and unreferenced so it never keeps the driver alive; null where process groups don't exist (Windows). */
export function startSupervisor(graceMs: number): Supervisor | null {
  if (process.platform === "win32") return null;
  let child: ChildProcessByStdio<Writable, null, null>;
  try {
    // Raw spawn, not execa: the supervisor must be detached and unreferenced, outliving this process.
    // The driver's pid rides along in argv so `ps` shows whose supervisor this is.
    child = spawn("/bin/sh", ["-c", SUPERVISOR_PROGRAM, "proctor-supervisor", String(graceMs / 1000), `proctor-supervisor-of=${process.pid}`], { detached: true, stdio: ["pipe", "ignore", "ignore"], env: {} });
  } catch {
    return null;
  }
  let open = true;
  child.on("error", () => {
    open = false;
  });
  const stdin = child.stdin;
  stdin.on("error", () => {
    open = false;
  });
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  return {
    pid: child.pid,
    send(line) {
      if (open && child.pid !== undefined) stdin.write(`${line}\n`);
    },
  };
}
