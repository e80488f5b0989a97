/**
 * GNU sed: its whole command line and its script language, read the way sed 4.x compiles them.
 *
 * sed can write files (`w`, `W`, the `w` flag of `s`, `-i`) and run commands (`e`, the `e` flag
 * of `s`), and GNU sed opens `w` files while it compiles, before it reads a line. So the script
 * is parsed in full, and it is read-only only when the parse succeeds and meets none of those.
 * Wherever sed implementations could read a region differently (a bracket expression holding the
 * delimiter), every reading is tried and a disagreement is undecidable: a region this parser
 * skips as text can never hold a command some sed would run.
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { grammar, opt, parseArgs } from "./getopt.js";
import { sedScriptProblem } from "./sed-script.js";

export const SED = grammar(() => ({
  command: "sed",
  short: {
    n: opt("quiet"), e: opt("expression", "required"), f: opt("file", "required"), i: opt("in-place", "optional"),
    l: opt("line-length", "required"), E: opt("extended"), r: opt("extended"), s: opt("separate"), u: opt("unbuffered"),
    z: opt("null-data"), b: opt("binary"),
  },
  long: {
    quiet: opt("quiet"), silent: opt("quiet"), debug: opt("debug"), expression: opt("expression", "required"),
    file: opt("file", "required"), "follow-symlinks": opt("follow-symlinks"), "in-place": opt("in-place", "optional"),
    "line-length": opt("line-length", "required"), posix: opt("posix"), "regexp-extended": opt("extended"),
    separate: opt("separate"), sandbox: opt("sandbox"), unbuffered: opt("unbuffered"), "null-data": opt("null-data"),
    "zero-terminated": opt("null-data"), binary: opt("binary"), help: opt("help"), version: opt("version"),
  },
}));

/**
 * `sed`: read-only without `-i` and with scripts that neither write nor run anything.
 *
 * GNU sed compiles each `-e` script as its option is read, and opens a `w` file while it
 * compiles, so order matters: `--help`/`--version` exit only after the scripts before them were
 * compiled (`sed -e 'w x' --version` creates `x`), and `--sandbox` refuses `w` only in scripts
 * compiled after it. The script operand is compiled after every option. Under POSIXLY_CORRECT
 * options after the first operand are operands, so that operand can be the script where the
 * permuted reading saw an `-e`: both readings must be read-only.
 */
export function classifySed(args: readonly Arg[]): BashVerdict {
  const permuted = sedReading(args, false);
  if (permuted.effect !== "read-only") return permuted;
  const posix = sedReading(args, true);
  return posix.effect === "read-only" ? permuted : posix;
}

function sedReading(args: readonly Arg[], posixlyCorrect: boolean): BashVerdict {
  const parsed = parseArgs(SED(), args, { posixlyCorrect });
  if (parsed.verdict) return parsed.verdict;
  const scripts: Arg[] = [];
  let sandbox = false;
  let unsandboxed = false;
  let operands = parsed.operands;
  for (const o of parsed.options) {
    if (o.id === "help" || o.id === "version") {
      // Exits here, after compiling the -e scripts read so far.
      if (scripts.length === 0) return readOnly(`sed ${o.spelling} prints and exits`);
      return compiled(scripts, !unsandboxed) ?? readOnly(`sed ${o.spelling} prints and exits (after compiling the scripts before it)`);
    }
    if (o.id === "in-place") return sideEffecting(`\`sed ${o.spelling}\` rewrites its input files`);
    if (o.id === "file") return undecidable(`\`sed ${o.spelling}\` reads its script from ${o.value?.text ?? "a file"}, which proctor cannot see`);
    if (o.id === "expression") {
      if (o.value === undefined) return undecidable(`\`sed ${o.spelling}\` lacks its value`);
      scripts.push(o.value);
      if (!sandbox) unsandboxed = true;
    }
    if (o.id === "sandbox") sandbox = true;
    // BSD sed's -l is a flag, so there the next argument is the script: only a number is safe.
    if (o.id === "line-length" && !/^\d+$/.test(o.value?.value ?? "")) return undecidable(`\`sed ${o.spelling} ${o.value?.text}\`: BSD sed reads -l as a flag and the next argument as the script`);
  }
  if (scripts.length === 0) {
    const [script, ...rest] = operands;
    if (!script) return readOnly("sed without a script (a usage error)");
    scripts.push(script);
    if (!sandbox) unsandboxed = true;
    operands = rest;
  }
  return compiled(scripts, !unsandboxed) ?? readOnly(sandbox && !unsandboxed ? "sed --sandbox cannot write or run commands" : "sed prints only");
}

/** What compiling `scripts` (and running them) could do; `undefined` when nothing. */
function compiled(scripts: readonly Arg[], allSandboxed: boolean): BashVerdict | undefined {
  // GNU sed joins -e scripts with line breaks and compiles them as one.
  const texts: string[] = [];
  for (const script of scripts) {
    if (script.value === undefined) return undecidable(`the sed script ${script.text} is computed at run time`);
    texts.push(script.value);
  }
  // --sandbox refuses e, r and w at compile time, before sed reads or writes anything.
  if (allSandboxed) return undefined;
  return sedScriptProblem(texts.join("\n"));
}
