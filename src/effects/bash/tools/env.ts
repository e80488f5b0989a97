/**
 * Environment prefixes (`LC_ALL=C sort`) and `env`'s own grammar.
 *
 * Almost any variable can make an ordinary command run a program or read another configuration
 * (`PAGER`, `GIT_*`, `LESSOPEN`, `LD_PRELOAD`, `BASH_ENV`, `PATH`, `IFS`, `PYTHONSTARTUP`,
 * `RIPGREP_CONFIG_PATH`…), so assignments are judged by an allow-list of variables known to be
 * inert: they only change how text is formatted, sorted or shown.
 */
import { readOnly, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { grammar, opt, parseArgs } from "./getopt.js";
import { at } from "../../../util/narrow.js";

/** Variables that only change formatting: locale, time zone, terminal size and colour switches. */
export const INERT_VARIABLES: ReadonlySet<string> = new Set([
  "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC", "LC_TIME", "LC_MONETARY",
  "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION",
  "TZ", "COLUMNS", "LINES", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM",
]);

/**
 * A locale or terminal name with a `/` is a path glibc or ncurses reads data from; the value of
 * an inert variable must be a plain name (`C.UTF-8`, `en_US.utf8`, `dumb`, `Europe/Paris` for TZ).
 */
const PLAIN_VALUE = /^[A-Za-z0-9_.,:@+-]*$/;
const TZ_VALUE = /^[A-Za-z0-9_.,:+/-]*$/;

/**
 * Is `NAME=value` in front of a command (or after `env`) inert? `value` is `undefined` when the
 * shell computes it; then only variables whose every value is harmless qualify.
 */
export function isInertVariable(name: string, value: string | undefined): boolean {
  if (!INERT_VARIABLES.has(name)) return false;
  if (value === undefined) return false;
  if (name === "TZ") return TZ_VALUE.test(value) && !value.includes("..");
  return PLAIN_VALUE.test(value);
}

const ENV = grammar(() => ({
  command: "env",
  permute: false,
  short: {
    i: opt("ignore-environment"), "0": opt("null"), u: opt("unset", "required"), C: opt("chdir", "required"),
    S: opt("split-string", "required"), v: opt("debug"), a: opt("argv0", "required"),
  },
  long: {
    "ignore-environment": opt("ignore-environment"), null: opt("null"), unset: opt("unset", "required"),
    chdir: opt("chdir", "required"), "split-string": opt("split-string", "required"), debug: opt("debug"),
    argv0: opt("argv0", "required"), "block-signal": opt("signals", "optional"), "default-signal": opt("signals", "optional"),
    "ignore-signal": opt("signals", "optional"), "list-signal-handling": opt("list"), help: opt("help"), version: opt("version"),
  },
}));

/**
 * The command `env ARGS` runs, with its arguments, when the arguments read soundly and every
 * assignment is inert; `undefined` otherwise (or when env only prints). For checks that look at
 * the command itself, such as its repository's configuration; `chdirs` are the directories
 * `-C`/`--chdir` moves to first, in order (the command runs, and finds its repository, there).
 */
export function envCommand(args: readonly Arg[]): { name: string; args: readonly Arg[]; chdirs?: readonly Arg[] } | undefined {
  const parsed = parseArgs(ENV(), args);
  if (parsed.verdict) return undefined;
  const rest = parsed.operands;
  let k = rest[0]?.value === "-" ? 1 : 0;
  while (k < rest.length && (rest[k]?.value?.indexOf("=") ?? -1) > 0) k++;
  const command = rest[k];
  if (command?.value === undefined) return undefined;
  const chdirs = parsed.options.filter((o) => o.id === "chdir").map((o) => o.value ?? { value: undefined, text: o.spelling });
  return { name: command.value, args: rest.slice(k + 1), ...(chdirs.length > 0 ? { chdirs } : {}) };
}

/**
 * `env [OPTION]… [-] [NAME=VALUE]… [COMMAND [ARG]…]`: read-only when its options are, every
 * assignment is inert, and the command it runs is read-only (decided by `classify`, the catalog).
 */
export function classifyEnv(args: readonly Arg[], classify: (name: string, args: readonly Arg[]) => BashVerdict): BashVerdict {
  const parsed = parseArgs(ENV(), args);
  if (parsed.verdict) return parsed.verdict;
  for (const o of parsed.options) {
    if (o.id === "split-string") return undecidable(`\`env ${o.spelling}\` splits a string into a command line proctor does not read`);
    if (o.id === "argv0") return undecidable(`\`env ${o.spelling}\` runs a program under another name, which multi-call programs obey`);
    if (o.id === "chdir" && o.value?.value === undefined) return undecidable(`\`env ${o.spelling}\` gets a directory computed at run time`);
  }
  let k = 0;
  const rest = parsed.operands;
  if (rest[0]?.value === "-") k++; // `env -` is `env -i`
  for (; k < rest.length; k++) {
    const a = at(rest, k);
    if (a.value === undefined) return undecidable(`\`env\` gets ${a.text}, computed at run time, which could be an assignment or the command`);
    const eq = a.value.indexOf("=");
    if (eq <= 0) break;
    const name = a.value.slice(0, eq);
    if (!isInertVariable(name, a.value.slice(eq + 1))) {
      return undecidable(`\`env ${name}=…\` sets ${name}, which is not a variable proctor knows to be inert (PAGER, GIT_*, LD_PRELOAD… can make a command run anything)`);
    }
  }
  const command = rest[k];
  if (!command) return readOnly("env prints the environment");
  if (command.value === undefined) return undecidable(`\`env\` gets ${command.text}, computed at run time, which could be an assignment or the command`);
  const inner = classify(command.value, rest.slice(k + 1));
  if (inner.effect === "read-only") return readOnly(`env runs ${command.value} (${inner.reason})`);
  return { effect: inner.effect, reason: `\`env\` runs ${command.value}: ${inner.reason}` };
}
