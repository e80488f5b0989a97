/**
 * Shell builtins whose operands Bash evaluates as text — as an arithmetic expression, a subscript,
 * a variable name or shell options — judged before the command catalog sees them. A subscript is
 * arithmetic, and arithmetic expands `$(…)`: `printf -v 'a[$(rm x)]' 1`, `test -v 'a[$(rm x)]'`
 * and `[[ $1 -eq 0 ]]` (after `set -- 'a[$(rm x)]'`) all run `rm`. So these are read-only only
 * when every operand that Bash evaluates is a literal that cannot evaluate anything.
 */
import { classifyMapfile, classifyRead } from "./everyday.js";
import { readOnly, undecidable, type Arg, type BashVerdict } from "./verdict.js";
import { at } from "../../util/narrow.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Operators of `test` / `[[ ]]` whose operand names a variable (with an optional subscript). */
const NAME_OPERATORS = new Set(["-v", "-R"]);
/** `[[ ]]` evaluates both sides of these as arithmetic. */
export const ARITHMETIC_TEST_OPERATORS: ReadonlySet<string> = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

/**
 * `set` options that only make the shell stricter or louder, or change globbing (which the
 * classifier already treats as unknown): `-e`, `-u`, `-x`, `-v`, `-f`, `-C`, `-o pipefail` …
 * Not here, so undecidable: `-k` (every `NAME=value` argument becomes an environment
 * assignment), `-a` (every assignment is exported), `-o posix`, `--`/operands (they set
 * positional parameters to text a later arithmetic context may evaluate).
 */
const SET_FLAGS = /^[-+][euxvfCBhbmnpPTE]*(o?)$/;
const SET_OPTIONS = new Set(["errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "braceexpand", "hashall", "noexec", "physical", "errtrace", "functrace", "notify", "monitor", "privileged"]);
/** `shopt` options that change only globbing and matching, which the classifier treats as unknown anyway. */
const SHOPT_INERT = new Set(["nullglob", "failglob", "dotglob", "nocaseglob", "nocasematch", "globstar", "globasciiranges"]);

function setVerdict(args: readonly Arg[]): BashVerdict {
  for (let i = 0; i < args.length; i++) {
    const arg = at(args, i);
    const v = arg.value;
    if (v === undefined) return undecidable(`set gets ${arg.text}, computed at run time: it could be -k, or set positional parameters`);
    const flags = SET_FLAGS.exec(v);
    if (!flags || v.length < 2) {
      return undecidable(v.startsWith("-") || v.startsWith("+") ? `\`set ${v}\` changes how later commands are read or run` : `set ${arg.text} sets positional parameters, which a later arithmetic context could evaluate`);
    }
    // `-o NAME` (also at the end of a cluster, `-euo pipefail`); a bare `-o` lists the options.
    if (flags[1] && i + 1 < args.length) {
      const option = at(args, ++i);
      const name = option.value;
      if (name === undefined || !SET_OPTIONS.has(name)) return undecidable(`set -o ${option.text} changes how later commands are read or run`);
    }
  }
  return readOnly("set changes only shell options");
}

function shoptVerdict(args: readonly Arg[]): BashVerdict {
  const values: string[] = [];
  for (const a of args) {
    if (a.value === undefined) return undecidable("`shopt` with an argument computed at run time");
    values.push(a.value);
  }
  const flags = values.filter((v) => v.startsWith("-"));
  const names = values.filter((v) => !v.startsWith("-"));
  const changes = flags.some((f) => /[su]/.test(f));
  if (flags.some((f) => !/^-[supqo]+$/.test(f))) return undecidable(`\`shopt ${flags.join(" ")}\` is not modelled`);
  if (!changes) return readOnly("shopt prints shell options");
  const risky = names.find((n) => !SHOPT_INERT.has(n));
  if (risky !== undefined || names.length === 0) return undecidable(`\`shopt ${values.join(" ")}\` changes how later commands are read or run`);
  return readOnly("shopt changes only globbing");
}

/** `test` / `[`: `-v NAME` and `-R NAME` evaluate a subscript in NAME. (Bash's `test` compares `-eq` operands as plain integers; `[[` does not.) */
function testVerdict(command: string, args: readonly Arg[]): BashVerdict {
  for (const [i, arg] of args.entries()) {
    if (arg.value !== undefined && NAME_OPERATORS.has(arg.value)) {
      const operand = args[i + 1];
      if (operand && (operand.value === undefined || !IDENTIFIER.test(operand.value))) {
        return undecidable(`\`${command} ${arg.value}\` evaluates the subscript in ${operand.text} as arithmetic, which can run commands`);
      }
    }
  }
  return readOnly(`${command} only tests`);
}

/** `printf -v NAME` assigns, and evaluates a subscript in NAME; `-vNAME` is the same option. */
function printfVerdict(args: readonly Arg[]): BashVerdict | undefined {
  const first = args[0];
  if (!first) return undefined;
  if (first.value === undefined) return undecidable(`printf gets ${first.text} first, computed at run time: it could be -v, which assigns a variable`);
  if (first.value.startsWith("-") && first.value !== "--" && first.value !== "-") return undecidable(`printf ${first.text}: \`printf -v\` assigns a shell variable (and evaluates its subscript)`);
  return undefined;
}

/**
 * The verdict for a builtin the core models completely, or `undefined` to let the command
 * catalog decide. `name` is the command name after quote removal.
 */
export function classifyBuiltin(name: string, args: readonly Arg[]): BashVerdict | undefined {
  switch (name) {
    case "set":
      return setVerdict(args);
    case "shopt":
      return shoptVerdict(args);
    case "test":
    case "[":
      return testVerdict(name, args);
    case "printf":
      return printfVerdict(args);
    case "read":
      return classifyRead(args);
    case "mapfile":
    case "readarray":
      return classifyMapfile(name, args);
    case "break":
    case "continue":
      return args.every((a) => a.value !== undefined && /^[0-9]+$/.test(a.value)) ? readOnly(`${name} only leaves a loop`) : undecidable(`\`${name}\` with an operand that is not a literal number`);
    default:
      return undefined;
  }
}
