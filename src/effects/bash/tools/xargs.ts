/**
 * GNU `xargs`: its own options, then the command it runs, classified by the catalog as if the
 * input items were words computed at run time — because they are. xargs appends any number of
 * items (none at all when the input is empty and `-r` is absent), each of which may start with a
 * dash, so the command must be read-only with zero, one, two or three unknown words appended:
 * `xargs grep -l TODO` is (grep has no option that writes or runs), `xargs sort` is not (an item
 * `-o` and then a file name make `sort -o FILE`).
 *
 * With `-I R` (`-i`, `--replace`) items are substituted into the arguments instead: an argument
 * containing R becomes unknown, and a command name containing R is undecidable.
 */
import { readOnly, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { grammar, opt, parseArgs } from "./getopt.js";

export const XARGS = grammar(() => ({
  command: "xargs",
  permute: false,
  short: {
    "0": opt("null"), a: opt("arg-file", "required"), d: opt("delimiter", "required"), E: opt("eof", "required"),
    e: opt("eof", "optional"), I: opt("replace", "required"), i: opt("replace", "optional"), L: opt("max-lines", "required"),
    l: opt("max-lines", "optional"), n: opt("max-args", "required"), o: opt("open-tty"), P: opt("max-procs", "required"),
    p: opt("interactive"), r: opt("no-run-if-empty"), s: opt("max-chars", "required"), t: opt("verbose"), x: opt("exit"),
  },
  long: {
    null: opt("null"), "arg-file": opt("arg-file", "required"), delimiter: opt("delimiter", "required"),
    eof: opt("eof", "optional"), replace: opt("replace", "optional"), "max-lines": opt("max-lines", "optional"),
    "max-args": opt("max-args", "required"), "open-tty": opt("open-tty"), "max-procs": opt("max-procs", "required"),
    interactive: opt("interactive"), "no-run-if-empty": opt("no-run-if-empty"), "max-chars": opt("max-chars", "required"),
    "show-limits": opt("show-limits"), verbose: opt("verbose"), exit: opt("exit"), help: opt("help"), version: opt("version"),
    "process-slot-var": opt("process-slot-var", "required"),
  },
}));

const UNKNOWN: Arg = { text: "(an item from xargs's input)" };

/**
 * The command `xargs ARGS` runs, with its fixed arguments and one word standing for the items it
 * appends; `undefined` when that cannot be read. For checks that look at the command itself.
 */
export function xargsCommand(args: readonly Arg[]): { name: string; args: readonly Arg[] } | undefined {
  const parsed = parseArgs(XARGS(), args);
  if (parsed.verdict) return undefined;
  const [command, ...fixed] = parsed.operands;
  if (!command) return { name: "echo", args: [UNKNOWN] };
  return command.value === undefined ? undefined : { name: command.value, args: [...fixed, UNKNOWN] };
}

/** Classify `xargs ARGS`, with `classify` deciding the command it runs. */
export function classifyXargs(args: readonly Arg[], classify: (name: string, args: readonly Arg[]) => BashVerdict): BashVerdict {
  const parsed = parseArgs(XARGS(), args);
  if (parsed.verdict) return parsed.verdict;
  let replace: string | undefined;
  for (const o of parsed.options) {
    // The variable is set in the command's environment: `--process-slot-var=PATH` changes what runs.
    if (o.id === "process-slot-var") return undecidable(`\`xargs ${o.spelling}\` sets an environment variable for the command it runs`);
    if (o.id === "replace") {
      const r = o.spelling === "-I" ? o.value : (o.value ?? { value: "{}", text: "{}" });
      if (r?.value === undefined) return undecidable(`\`xargs ${o.spelling}\` gets a replacement string computed at run time`);
      replace = r.value === "" ? undefined : r.value;
    }
    // GNU xargs: a later -L/-l/-n cancels --replace ("mutually exclusive, ignoring previous
    // --replace value"), and the items are appended again (found by the fuzzer).
    if (o.id === "max-lines" || o.id === "max-args") replace = undefined;
    // --help and --version exit where they are read; --show-limits prints and then runs the command.
    if (o.id === "help" || o.id === "version") return readOnly(`xargs ${o.spelling} prints and exits`);
  }
  const [command, ...fixed] = parsed.operands;
  if (!command) return readOnly("xargs runs echo");
  if (command.value === undefined) return undecidable(`the command xargs runs, ${command.text}, is computed at run time`);
  if (replace !== undefined) {
    if (command.value.includes(replace)) return undecidable(`the command xargs runs is named by its input (\`${replace}\` in ${command.text})`);
    const substituted = fixed.map((a) => (a.value === undefined || a.value.includes(replace) ? { text: a.text } : a));
    return judged(command.value, classify(command.value, substituted));
  }
  for (let extra = 0; extra <= 3; extra++) {
    const v = classify(command.value, [...fixed, ...Array<Arg>(extra).fill(UNKNOWN)]);
    if (v.effect !== "read-only") return judged(command.value, v);
  }
  return readOnly(`xargs runs ${command.value}, which only reads whatever arguments it is given`);
}

function judged(command: string, v: BashVerdict): BashVerdict {
  if (v.effect === "read-only") return readOnly(`xargs runs ${command} (${v.reason})`);
  // xargs decides at run time whether and how often it runs the command.
  return undecidable(`\`xargs\` runs ${command} with arguments from its input: ${v.reason}`);
}
