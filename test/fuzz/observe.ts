/**
 * The observer of the differential fuzzer: runs shell commands confined (src/policy/confine.ts:
 * read-only root, no network, no capabilities, no unix sockets) but with a writable scratch copy,
 * so that an effect is SEEN rather than only refused:
 *
 * - files: each command runs in its own copy of a fixture directory, with its own HOME and
 *   TMPDIR inside the scratch root, and anything left in the sandbox's /tmp is listed; afterwards
 *   every copy is compared with the fixture (names, kinds, sizes, modes, contents);
 * - attempts: strace records every open for writing, unlink, rename, mkdir, link, chmod,
 *   truncate and utime — refused ones too (a write to the read-only root is an effect the
 *   confinement hid, not an absence of one);
 * - programs: strace records every program executed; one whose name is not a word of the command
 *   (a pager, a decompressor, `sh`) is an effect;
 * - network: a listener on 127.0.0.1:8099 inside the sandbox's own network namespace, with every
 *   proxy variable and registry setting pointing at it, records each connection.
 *
 * One bwrap per batch; the commands run one after another inside it (bash loops, one fork each).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { confineCommand, shellQuote as q } from "../../src/policy/confine.js";

export const PORT = 8099;

/** Fixture files every command starts with (a directory `two` with exactly two files for globs). */
export const FIXTURE: Readonly<Record<string, string>> = {
  in: "b\na\na\nc\nw out\n",
  in2: "x y 3\n1 2 3\n",
  "two/a": "1\n",
  "two/b": "2\n",
  "list": "in\nin2\n",
};

export interface Observation {
  readonly command: string;
  /** Every effect seen, as a sentence; empty when none. */
  readonly effects: readonly string[];
}

/** Whether bwrap and strace can run here (both are needed; the fuzzer is skipped without them). */
export function observerAvailable(): boolean {
  const probe = spawnSync("bash", ["-c", "command -v strace >/dev/null && command -v socat >/dev/null && bwrap --ro-bind / / --unshare-net --cap-drop ALL true"], { stdio: "ignore", timeout: 10_000 });
  return probe.status === 0;
}

const TRACED = "execve,execveat,open,openat,creat,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat,link,linkat,symlink,symlinkat,truncate,chmod,fchmodat,utimensat,connect";
const HARMLESS_PATHS = /^(\/dev\/(null|tty|stdout|stderr|pts\/\d+|full|zero)|\/proc\/self\/fd\/\d+|pipe:|socket:)$/;

type Snap = Map<string, string>;

function snapshot(dir: string, base = dir, out: Snap = new Map()): Snap {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    const rel = path.slice(base.length + 1);
    if (st.isDirectory()) {
      out.set(rel, `dir ${st.mode}`);
      snapshot(path, base, out);
    } else if (st.isFile()) {
      const hash = st.size <= 1 << 20 ? createHash("sha1").update(readFileSync(path)).digest("hex") : `mtime ${st.mtimeMs}`;
      out.set(rel, `file ${st.mode} ${st.size} ${hash}`);
    } else out.set(rel, `other ${st.mode}`);
  }
  return out;
}

function diff(before: Snap, after: Snap, where: string): string[] {
  const out: string[] = [];
  for (const [k, v] of after) if (before.get(k) !== v) out.push(`${before.has(k) ? "changed" : "created"} ${where}${k}`);
  for (const k of before.keys()) if (!after.has(k)) out.push(`deleted ${where}${k}`);
  return out;
}

/**
 * What strace saw that is an effect: writes attempted, programs run that the command does not
 * name. Writes under `scratch` (the case's TMPDIR) and /tmp are left to the snapshot: a temporary
 * file created and removed again (sort, tac) is not an effect, one left behind is.
 */
function traceEffects(trace: string, command: string, scratch: string, root: string): string[] {
  const temporary = (path: string) => path.startsWith(`${scratch}/`) || (path.startsWith("/tmp/") && !path.startsWith(`${root}/`));
  const words = new Set(command.split(/[^A-Za-z0-9_.+-]+/).filter(Boolean));
  words.add("bash");
  const out = new Set<string>();
  for (const line of trace.split("\n")) {
    const exec = /execve(?:at)?\((?:\d+, )?"([^"]*)".*\) = 0/.exec(line);
    if (exec) {
      const name = (exec[1] ?? "").split("/").pop() ?? "";
      if (!words.has(name)) out.add(`ran ${exec[1]}`);
      continue;
    }
    const open = /\bopen(?:at)?\((?:[A-Z_0-9-]+, )?"([^"]*)", ([A-Z_|0-9]+)/.exec(line);
    if (open) {
      const [, path = "", flags = ""] = open;
      if (/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(flags) && !HARMLESS_PATHS.test(path) && !temporary(path)) out.add(`opened ${path} for writing (${flags})`);
      continue;
    }
    const creat = /\bcreat\("([^"]*)"/.exec(line);
    if (creat) out.add(`created ${creat[1]}`);
    const other = /\b(unlink|unlinkat|rename|renameat2?|mkdir|mkdirat|link|linkat|symlink|symlinkat|truncate|chmod|fchmodat|utimensat)\((?:[A-Z_0-9-]+, )?"([^"]*)"/.exec(line);
    if (other && !HARMLESS_PATHS.test(other[2] ?? "") && !temporary(other[2] ?? "")) out.add(`${other[1]} ${other[2]}`);
    const connect = /\bconnect\(\d+, \{sa_family=AF_INET6?, [^}]*\}/.exec(line);
    if (connect) out.add(`connect ${connect[0]}`);
  }
  return [...out];
}

/** A command to observe; `posix` adds POSIXLY_CORRECT=1 to its environment. */
export type Observed = string | { readonly command: string; readonly posix?: boolean };

/** Run each command confined, observed; one Observation per command, in order. */
export function observe(cases: readonly Observed[], opts: { timeoutSeconds?: number } = {}): Observation[] {
  const commands = cases.map((c) => (typeof c === "string" ? c : c.command));
  const root = mkdtempSync(join(tmpdir(), "proctor-fuzz-"));
  try {
    const template = join(root, "template");
    for (const [rel, text] of Object.entries(FIXTURE)) {
      mkdirSync(join(template, rel, ".."), { recursive: true });
      writeFileSync(join(template, rel), text);
    }
    // An archive for unzip to list or extract (members `-l` and `zipped`, not in the fixture), when zip is installed.
    writeFileSync(join(template, "-l"), "z\n");
    writeFileSync(join(template, "zipped"), "z\n");
    spawnSync("zip", ["-q", "x.zip", "./-l", "zipped"], { cwd: template, stdio: "ignore" });
    rmSync(join(template, "-l"));
    rmSync(join(template, "zipped"));
    const proxy = `http://127.0.0.1:${PORT}/`;
    const env = [
      "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", `http_proxy=${proxy}`, `https_proxy=${proxy}`, `HTTP_PROXY=${proxy}`,
      `HTTPS_PROXY=${proxy}`, `ALL_PROXY=${proxy}`, `npm_config_registry=${proxy}`, `PIP_INDEX_URL=${proxy}simple`,
    ].map(q).join(" ");
    const t = opts.timeoutSeconds ?? 3;
    const lines = [
      `R=${q(root)}`,
      `socat TCP-LISTEN:${PORT},bind=127.0.0.1,fork,reuseaddr SYSTEM:'cat "$R/current" >> "$R/net.log"; cat >/dev/null' 2>/dev/null & L=$!`,
      `for _ in 1 2 3 4 5 6 7 8 9 10; do (echo > /dev/tcp/127.0.0.1/${PORT}) 2>/dev/null && break; sleep 0.1; done; : > "$R/net.log"`,
    ];
    commands.forEach((command, i) => {
      const c = join(root, `c${i}`);
      const posix = typeof cases[i] === "object" && cases[i]?.posix === true ? " POSIXLY_CORRECT=1" : "";
      mkdirSync(join(c, "home"), { recursive: true });
      mkdirSync(join(c, "tmp"));
      writeFileSync(join(c, "cmd"), command);
      lines.push(
        `echo ${i} > "$R/current"; cp -a "$R/template" ${q(join(c, "work"))}`,
        `(cd ${q(join(c, "work"))} && exec env -i ${env}${posix} HOME=${q(join(c, "home"))} TMPDIR=${q(join(c, "tmp"))} timeout -k 1 ${t} strace -f -qq -o ${q(join(c, "trace"))} -e trace=${TRACED} bash --norc --noprofile -c "$(cat ${q(join(c, "cmd"))})") </dev/null >/dev/null 2>&1`,
        `find /tmp -mindepth 1 -maxdepth 1 ! -path "$R" > ${q(join(c, "tmpfs"))}; find /tmp -mindepth 1 -maxdepth 1 ! -path "$R" -exec rm -rf {} + 2>/dev/null`,
      );
    });
    lines.push(`echo done > "$R/current"; sleep 0.1; kill $L 2>/dev/null; wait 2>/dev/null; echo finished > "$R/finished"`);
    writeFileSync(join(root, "batch.sh"), lines.join("\n"));
    // The jail as an observation box: strace needs ptrace ("debug"), and the commands see the host's / read-only as before (no allowlist, no Landlock: a write shows as EROFS).
    const confined = confineCommand(`bash --norc ${q(join(root, "batch.sh"))}`, { cwd: root, writable: [root], omit: ["debug", "fsAllowlist", "landlock"] });
    spawnSync("bash", ["--norc", "-c", confined], { stdio: "ignore", timeout: 30_000 + commands.length * (t + 2) * 1000 });
    // A batch cut short would leave later commands unrun, which would look like no effect.
    if (readdirSync(root).includes("finished") === false) throw new Error(`the fuzz batch in ${root} did not finish`);
    const base = snapshot(template);
    const net = readFileSync(join(root, "net.log"), "utf8").split("\n").filter(Boolean);
    return commands.map((command, i) => {
      const c = join(root, `c${i}`);
      const effects = [
        ...diff(base, snapshot(join(c, "work")), ""),
        ...diff(new Map(), snapshot(join(c, "home")), "~/"),
        ...diff(new Map(), snapshot(join(c, "tmp")), "$TMPDIR/"),
        ...readFileSync(join(c, "tmpfs"), "utf8").split("\n").filter(Boolean).map((p) => `left ${p}`),
        ...(net.includes(String(i)) ? [`connected to 127.0.0.1:${PORT}`] : []),
        ...(existsSync(join(c, "trace")) ? traceEffects(readFileSync(join(c, "trace"), "utf8"), command, join(c, "tmp"), root) : ["no trace: strace did not start"]),
      ];
      return { command, effects };
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
