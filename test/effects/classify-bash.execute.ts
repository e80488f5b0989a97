/**
 * Runs shell commands under the real `bash -c`, each in its own fresh directory, and reports every
 * command after which that directory no longer looks as it did. The execution oracle for the
 * classifier: a command it calls read-only must leave its directory exactly as it found it.
 *
 * Commands are batched: a few driver `bash` processes each loop over their share, starting one
 * `bash -c` per command (with a minimal environment, stdin from /dev/null, no network variables,
 * and a hard timeout). Spawning one Node child per command would cost ten times as much.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What every case directory holds before its command runs: a file, and a sentinel directory. */
const FIXTURE: Readonly<Record<string, string>> = { f: "a\nb\n", "keep/file": "sentinel\n" };
const EXPECTED = ["f", "keep", "keep/file"].join("\n");

/** A command whose directory changed: what was there afterwards, against what should be. */
export interface Finding {
  readonly command: string;
  readonly after: string;
  readonly expected: string;
}

function snapshot(dir: string): string {
  const out: string[] = [];
  const stack = [""];
  while (stack.length) {
    const rel = stack.pop()!;
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      out.push(p);
      if (e.isDirectory()) stack.push(p);
      else if (FIXTURE[p] !== undefined && readFileSync(join(dir, p), "utf8") !== FIXTURE[p]) out.push(`${p} (changed)`);
    }
  }
  return out.sort().join("\n");
}

/** One fork and two execs per command (timeout, bash): reading the file with `read` forks nothing. */
const DRIVER = `
cd "$1" || exit 1
for ((i = $2; i < $3; i++)); do
  IFS= read -r -d '' cmd < "cmds/$i"
  cd "c$i" || exit 1
  HOME="$PWD" timeout -s KILL 3 bash -c "$cmd" </dev/null >/dev/null 2>&1
  cd "$1" || exit 1
done
exit 0
`;

function drive(root: string, from: number, to: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", DRIVER, "driver", root, String(from), String(to)], {
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C", LC_ALL: "C" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`oracle driver exited ${code}: ${stderr}`))));
  });
}

/**
 * Run each command under `bash -c` in a directory of its own (holding `f` and `keep/file`) and
 * return the commands after which that directory, or the shared root, changed.
 */
export async function runUnderBash(commands: readonly string[], parallel = 2): Promise<Finding[]> {
  if (commands.length === 0) return [];
  const root = mkdtempSync(join(tmpdir(), "proctor-oracle-"));
  try {
    mkdirSync(join(root, "cmds"));
    commands.forEach((command, i) => {
      writeFileSync(join(root, "cmds", String(i)), command);
      const dir = join(root, `c${i}`);
      mkdirSync(join(dir, "keep"), { recursive: true });
      for (const [name, body] of Object.entries(FIXTURE)) writeFileSync(join(dir, name), body);
    });
    const share = Math.ceil(commands.length / parallel);
    const jobs: Promise<void>[] = [];
    for (let from = 0; from < commands.length; from += share) jobs.push(drive(root, from, Math.min(from + share, commands.length)));
    await Promise.all(jobs);
    const findings: Finding[] = [];
    commands.forEach((command, i) => {
      const after = snapshot(join(root, `c${i}`));
      if (after !== EXPECTED) findings.push({ command, after, expected: EXPECTED });
    });
    const stray = readdirSync(root).filter((n) => n !== "cmds" && !/^c\d+$/.test(n));
    if (stray.length) findings.push({ command: "(one of the batch)", after: stray.join("\n"), expected: "(nothing outside the case directories)" });
    return findings;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
