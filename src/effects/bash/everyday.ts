/**
 * Everyday read-only uses of commands that usually do more: listing an archive (`tar tf`,
 * `unzip -Z1`), decompressing to standard output (`gunzip -c`, `zcat`), checking a script's
 * syntax (`sh -n`), listing signals (`kill -l`), looking up an account (`getent passwd`), and
 * reading a line into a variable (`read`, `mapfile`). Each is an allow-list of the exact forms:
 * any option not listed makes the command side-effecting (it may write) or undecidable (it may
 * run a program); a word computed at run time where an option could stand is undecidable. Long
 * options must be spelled out: an abbreviation is not listed, because the tool may read it as
 * another option of its full table.
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "./verdict.js";

/**
 * A variable a command may set: lower-case, so none of Bash's own (PATH, IFS, BASH_ENV, PS4 …,
 * all upper-case but `auto_resume` and `histchars`), and not a proxy setting tools read.
 */
export function isQuietVariable(name: string): boolean {
  return /^[a-z][a-z0-9_]*$/.test(name) && !/proxy|^auto_resume$|^histchars$/.test(name);
}

const computed = (command: string, arg: Arg) => undecidable(`\`${command}\` gets ${arg.text}, computed at run time, where it could be an option`);

/** Short options a builtin takes, and which of them take a value. */
function builtinOptions(command: string, args: readonly Arg[], flags: string, valued: string): { names: Arg[]; values: Map<string, string>; verdict?: BashVerdict } {
  const values = new Map<string, string>();
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as Arg;
    const v = arg.value;
    if (v === undefined) return { names: [], values, verdict: computed(command, arg) };
    if (v === "--") {
      i++;
      break;
    }
    if (!v.startsWith("-") || v === "-") break;
    for (let k = 1; k < v.length; k++) {
      const c = v.charAt(k);
      if (valued.includes(c)) {
        const rest = v.slice(k + 1);
        const next = args[i + 1];
        if (rest === "" && next?.value === undefined) return { names: [], values, verdict: next ? computed(command, next) : sideEffecting(`\`${command} -${c}\` needs a value`) };
        values.set(c, rest !== "" ? rest : (next?.value ?? ""));
        if (rest === "") i++;
        break;
      }
      if (!flags.includes(c)) return { names: [], values, verdict: undecidable(`\`${command} -${c}\` is not an option proctor models`) };
    }
  }
  return { names: args.slice(i), values };
}

/**
 * `read [-rs] [-a NAME] [-d D] [-n N] [-N N] [-p P] [-t T] [-u FD] [NAME…]`: sets only the
 * variables named (REPLY by default), which must be quiet ones. `-e` (readline, which reads
 * INPUTRC and can run bound commands) and `-i` are not modelled.
 */
export function classifyRead(args: readonly Arg[]): BashVerdict {
  const { names, values, verdict } = builtinOptions("read", args, "rs", "adnNptu");
  if (verdict) return verdict;
  const targets = [...names.map((n) => n.value), ...(values.has("a") ? [values.get("a")] : [])];
  const bad = targets.find((n) => n === undefined || !isQuietVariable(n));
  if (bad !== undefined || targets.some((n) => n === undefined)) return undecidable(`\`read\` assigns ${bad ?? "a name computed at run time"}, which may be a variable the shell or a tool reads`);
  return readOnly("read sets only shell variables");
}

/** `mapfile`/`readarray [-t] [-d D] [-n N] [-O N] [-s N] [-u FD] [ARRAY]`: `-C` runs a callback. */
export function classifyMapfile(command: string, args: readonly Arg[]): BashVerdict {
  const { names, verdict } = builtinOptions(command, args, "t", "dnOsuc");
  if (verdict) return verdict;
  if (names.length > 1) return undecidable(`\`${command}\` with more than one name`);
  const name = names[0];
  if (name !== undefined && (name.value === undefined || !isQuietVariable(name.value))) return undecidable(`\`${command}\` assigns ${name.text}, which may be a variable the shell or a tool reads`);
  return readOnly(`${command} sets only a shell array`);
}

/** `kill -l [SIG…]` and `kill -L` list signal names; every other use sends one. */
export function classifyKill(args: readonly Arg[]): BashVerdict | undefined {
  const first = args[0]?.value;
  if ((first === "-l" || first === "-L") && args.slice(1).every((a) => a.value !== undefined && /^[A-Za-z0-9+]+$/.test(a.value))) return readOnly("kill -l lists signals");
  return undefined;
}

/**
 * `sh -n FILE`, `bash -n FILE`, `dash -n FILE` read a script without running it (a
 * non-interactive shell; `-n` also keeps BASH_ENV from running — checked with real bash). Any
 * other option (`-i` ignores `-n` and sources startup files) is left to the runner rule.
 */
export function classifySyntaxCheck(command: string, args: readonly Arg[]): BashVerdict | undefined {
  if (args[0]?.value !== "-n") return undefined;
  const file = args[1];
  if (file !== undefined && (file.value === undefined || file.value.startsWith("-") || file.value.startsWith("+"))) return undefined;
  return readOnly(`${command} -n only parses the script`);
}

const GETENT_DATABASES = new Set(["passwd", "group", "shadow", "gshadow", "aliases", "ethers", "initgroups", "netgroup", "protocols", "rpc", "services"]);

/** `getent DB [KEY…]` for the local account and service databases; host and network lookups ask DNS. */
export function classifyGetent(args: readonly Arg[]): BashVerdict {
  const db = args[0]?.value;
  if (db === undefined || !GETENT_DATABASES.has(db)) return sideEffecting(`\`getent\` ${args[0]?.text ?? ""} may query the network (hosts and networks ask DNS)`);
  const bad = args.slice(1).find((a) => a.value === undefined || a.value.startsWith("-"));
  if (bad) return undecidable(`\`getent\` gets ${bad.text}, which is or could be an option (\`-s\` picks the lookup service)`);
  return readOnly("getent looks entries up");
}

export { classifyTar, classifyGzip, classifyZipinfo } from "./archives.js";
