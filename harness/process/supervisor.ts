/**
 * The supervisor: a tiny node process, in its own session, holding a pipe from the driving
 * process. The driver tells it which process groups, run tags and temp dirs are live; when the
 * pipe closes without a goodbye — the driver died, even by SIGKILL, which no handler sees — it
 * kills those groups and tagged processes (SIGTERM, then SIGKILL) and removes the dirs.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Writable } from "node:stream";

/**
 * The supervisor's program (run with `node -e`, so it works from sources and from a build alike).
 * Lines on stdin: `+g <pgid> <tag>`, `-g <pgid>`, `+d <dir>`, `-d <dir>`, `bye` (a clean exit:
 * the driver cleaned up itself). Before a group kill it checks that the leader pid, if it still
 * exists, carries the tag — a reused pid is never signalled.
 */
const PROGRAM = String.raw`
const fs = require("fs");
const groups = new Map();
const dirs = new Set();
let buffer = "";
let clean = false;
let done = false;
const TAG_VAR = "PROCTOR_RUN_TAG";
function environOf(pid) { try { return fs.readFileSync("/proc/" + pid + "/environ"); } catch { return undefined; } }
function tagged(tag) {
  let names = [];
  try { names = fs.readdirSync("/proc"); } catch { return []; }
  const needle = Buffer.from(TAG_VAR + "=" + tag + "\0");
  return names.filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid).filter((n) => { const e = environOf(n); return e !== undefined && e.includes(needle); }).map(Number);
}
function signalAll(signal) {
  for (const [pgid, tag] of groups) {
    const leader = environOf(pgid);
    if (leader === undefined || leader.includes(Buffer.from(TAG_VAR + "=" + tag + "\0"))) { try { process.kill(-pgid, signal); } catch {} }
    for (const pid of tagged(tag)) { try { process.kill(pid, signal); } catch {} }
  }
}
function finish() {
  if (done) return;
  done = true;
  if (clean || (groups.size === 0 && dirs.size === 0)) process.exit(0);
  signalAll("SIGTERM");
  setTimeout(() => {
    for (let pass = 0; pass < 3; pass++) signalAll("SIGKILL");
    for (const dir of dirs) { try { fs.rmSync(dir, { recursive: true, force: true }); } catch {} }
    process.exit(0);
  }, Number(process.argv[1]) || 1000);
}
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf("\n")) !== -1) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    const space = line.indexOf(" ");
    const op = space === -1 ? line : line.slice(0, space);
    const arg = space === -1 ? "" : line.slice(space + 1);
    if (op === "+g") { const [pgid, tag] = arg.split(" "); groups.set(Number(pgid), tag); }
    else if (op === "-g") groups.delete(Number(arg));
    else if (op === "+d") dirs.add(arg);
    else if (op === "-d") dirs.delete(arg);
    else if (op === "bye") clean = true;
  }
});
process.stdin.on("end", finish);
process.stdin.on("error", finish);
process.on("SIGINT", () => {});
process.on("SIGHUP", () => {});
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
    child = spawn(process.execPath, ["-e", PROGRAM, String(graceMs), `proctor-supervisor-of=${process.pid}`], { detached: true, stdio: ["pipe", "ignore", "ignore"], env: {} });
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
