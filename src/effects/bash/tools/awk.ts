/**
 * awk (gawk, mawk, the one true awk, busybox): the command line of all of them at once, and the
 * program read by a tokenizer rather than by patterns over its text.
 *
 * The name `awk` may be any of them, so the grammar is their union and each option means the
 * worst any of them makes of it: mawk's `-W exec` and gawk's `-W source=…` both count, `-W`
 * items match by prefix as mawk matches them, and `--sandbox` counts only for `gawk` (mawk
 * refuses it, but the one true awk ignores an unknown option and runs the program anyway).
 *
 * A program runs commands through `system()`, pipes (`|`, `|&`) and gawk's indirect calls (`@`);
 * it writes through `>`/`>>` in a `print`/`printf` statement; gawk opens network connections for
 * `/inet/…` names, as input files too — so a file name awk cannot know from the text (a computed
 * operand, a `getline <` from an expression, `ARGV` changed by the program) is undecidable.
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { awkProgramProblem } from "./awk-program.js";
import { grammar, opt, parseArgs } from "./getopt.js";

const AWK = grammar(() => ({
  command: "awk",
  // gawk's getopt string starts with `+`; mawk and the one true awk stop at the first operand.
  permute: false,
  short: {
    F: opt("F", "required"), v: opt("v", "required"), f: opt("file", "required"), e: opt("source", "required"),
    E: opt("exec", "required"), i: opt("include", "required"), l: opt("load", "required"), W: opt("W", "required"),
    d: opt("dump-variables", "optional"), D: opt("debug", "optional"), o: opt("pretty-print", "optional"),
    p: opt("profile", "optional"), L: opt("lint", "optional"),
    b: opt("b"), c: opt("c"), C: opt("c"), g: opt("c"), h: opt("c"), I: opt("c"), k: opt("c"), M: opt("c"), n: opt("c"),
    N: opt("c"), O: opt("c"), P: opt("c"), r: opt("c"), s: opt("c"), S: opt("sandbox"), t: opt("c"), V: opt("c"),
  },
  long: {
    assign: opt("v", "required"), "field-separator": opt("F", "required"), file: opt("file", "required"),
    source: opt("source", "required"), exec: opt("exec", "required"), include: opt("include", "required"),
    load: opt("load", "required"), "dump-variables": opt("dump-variables", "optional"), debug: opt("debug", "optional"),
    "pretty-print": opt("pretty-print", "optional"), profile: opt("profile", "optional"), persist: opt("persist", "optional"),
    lint: opt("lint", "optional"), sandbox: opt("sandbox"),
    bignum: opt("c"), "characters-as-bytes": opt("c"), copyright: opt("c"), csv: opt("c"), "gen-pot": opt("c"), help: opt("c"),
    "no-optimize": opt("c"), "non-decimal-data": opt("c"), optimize: opt("c"), posix: opt("c"), "re-interval": opt("c"),
    trace: opt("c"), traditional: opt("c"), "use-lc-numeric": opt("c"), version: opt("c"), usage: opt("c"),
  },
}));

/** What an option does beyond reading: the program comes from a file, or the run writes one. */
const EFFECTS: Record<string, "runs" | "writes"> = {
  file: "runs", exec: "runs", include: "runs", load: "runs", debug: "runs",
  "dump-variables": "writes", "pretty-print": "writes", profile: "writes", persist: "writes",
};

/** `-W` items (mawk's own, and gawk's long options) with what the worst reading does. */
const W_ITEMS: Record<string, "runs" | "writes" | "program" | "fine"> = {
  // mawk
  dump: "fine", exec: "runs", help: "fine", interactive: "fine", posix_space: "fine", random: "fine", sprintf: "fine",
  usage: "fine", version: "fine",
  // gawk, `-W name` meaning `--name`
  assign: "fine", bignum: "fine", "characters-as-bytes": "fine", copyright: "fine", csv: "fine", debug: "runs",
  "dump-variables": "writes", "field-separator": "fine", file: "runs", "gen-pot": "fine", include: "runs", lint: "fine",
  load: "runs", "no-optimize": "fine", "non-decimal-data": "fine", optimize: "fine", persist: "writes", posix: "fine",
  "pretty-print": "writes", profile: "writes", "re-interval": "fine", sandbox: "fine", source: "program", trace: "fine",
  traditional: "fine", "use-lc-numeric": "fine",
};
const W_RANK = { fine: 0, program: 1, writes: 2, runs: 3 } as const;

/** Read one `-W` value (`exec`, `v`, `sprint=2000,posix`): the worst any item could mean. */
function wItems(value: string): { worst: keyof typeof W_RANK; item: string; program?: string | undefined } | string {
  let worst: keyof typeof W_RANK = "fine";
  let worstItem = "";
  let program: string | undefined;
  for (const item of value.split(",")) {
    const eq = item.indexOf("=");
    const name = (eq === -1 ? item : item.slice(0, eq)).trim();
    const matches = name === "" ? [] : Object.entries(W_ITEMS).filter(([k]) => k.startsWith(name));
    if (matches.length === 0) return item;
    for (const [m, effect] of matches) {
      if (W_RANK[effect] > W_RANK[worst]) {
        worst = effect;
        worstItem = m;
      }
      if (effect === "program" && eq !== -1) program = item.slice(eq + 1);
    }
  }
  return { worst, item: worstItem, program };
}

/** Classify `awk`, `gawk`, `mawk`, `nawk` with their arguments. */
export function classifyAwk(command: string, args: readonly Arg[]): BashVerdict {
  const parsed = parseArgs({ ...AWK(), command }, args);
  if (parsed.verdict) return parsed.verdict;
  const programs: Arg[] = [];
  let sandbox = false;
  let operandIsProgram = true;
  for (const o of parsed.options) {
    const effect = EFFECTS[o.id];
    if (effect === "runs") return undecidable(`\`${command} ${o.spelling}\` ${o.id === "debug" ? "runs the debugger, which takes commands" : "runs a program from a file proctor cannot see"}`);
    if (effect === "writes") return sideEffecting(`\`${command} ${o.spelling}\` writes a file`);
    if (o.id === "source" || o.id === "W") {
      // Both take a required value, which the option parser always supplies.
      const arg = o.value;
      if (arg === undefined) return undecidable(`\`${command} ${o.spelling}\` lacks its value`);
      if (o.id === "source") {
        programs.push(arg);
        operandIsProgram = false;
      } else {
        const { value, text } = arg;
        if (value === undefined) return undecidable(`\`${command} -W ${text}\` is computed at run time`);
        const w = wItems(value);
        if (typeof w === "string") return undecidable(`\`${command} -W ${w}\` is not an option proctor models for awk`);
        if (w.worst === "runs") return undecidable(`\`${command} -W ${value}\` can mean \`-W ${w.item}\`, which runs a program from a file`);
        if (w.worst === "writes") return sideEffecting(`\`${command} -W ${value}\` can mean \`-W ${w.item}\`, which writes a file`);
        // gawk reads `-W source=TEXT` as a program; mawk ignores it and takes the first operand.
        if (w.program !== undefined) programs.push({ value: w.program, text });
      }
    }
    if (o.id === "sandbox" && command === "gawk") sandbox = true;
  }
  // The one true awk ignores an option it does not know, alone: the value after `--assign` or
  // `-W` becomes its program, and after an ignored `--source=TEXT` the first operand does.
  // So those values, and that operand, are read as programs too (only -F and -v mean the same
  // in every awk).
  for (const o of parsed.options) {
    if (o.value === undefined || o.spelling === "-F" || o.spelling === "-v" || o.id === "source") continue;
    if (o.value.value === undefined) return undecidable(`\`${command} ${o.spelling}\` gets ${o.value.text}, computed at run time, which an awk that ignores ${o.spelling} would run as its program`);
    programs.push(o.value);
  }
  const operands = [...parsed.operands];
  if (operandIsProgram || (command !== "gawk" && operands.length > 0)) {
    const program = operands.shift();
    if (!program) return readOnly(`${command} without a program (a usage error)`);
    programs.push(program);
  }
  for (const a of operands) {
    if (a.value === undefined) return undecidable(`\`${command}\` gets the operand ${a.text}, computed at run time, which gawk could open as a network connection (/inet/…)`);
    if (a.value.includes("/inet")) return sideEffecting(`\`${command} … ${a.value}\` opens a network connection in gawk (/inet/…)`);
  }
  for (const program of programs) {
    if (program.value === undefined) return undecidable(`the ${command} program ${program.text} is computed at run time`);
    if (sandbox) continue;
    const problem = awkProgramProblem(program.value);
    if (problem) return { effect: problem.effect, reason: `the ${command} program ${problem.reason}` };
  }
  return readOnly(sandbox ? "gawk --sandbox cannot write or run commands" : `${command} prints only`);
}
