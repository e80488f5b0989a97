/**
 * `xxd` (vim's): not getopt. Its own loop reads words until the first that is not an option,
 * and matches an option by its first two characters only — `-ps`, `-postscript` and `-pfoo` are
 * all `-p`; a leading `--` counts as `-` (`--cols`). An option that takes a value takes the rest
 * of the word unless the rest spells its long name (`-c8`, `-cols 8`, `-c 8`). No option is read
 * after the first operand: in `xxd in -u`, `-u` is the output file. A second operand is the file
 * xxd writes (truncating it); a third is a usage error, before anything is opened.
 *
 * Read from xxd.c (vim 9.0.1378, "xxd 2022-01-14"), and newer vims' `-R` and `-o`; an option this
 * table does not know is undecidable rather than the usage error it is in that version, because a
 * newer xxd may take it (and a value).
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { at } from "../../../util/narrow.js";

/** Options by their letter: the tails that mean "the value is the next word", or `flag`/`exits`. */
const XXD_OPTIONS: Readonly<Record<string, "flag" | "exits" | readonly string[]>> = {
  a: "flag", b: "flag", C: "flag", d: "flag", e: "flag", E: "flag", i: "flag", p: "flag", r: "flag", u: "flag",
  h: "exits", v: "exits",
  c: ["ols"], g: ["roupsize"], l: ["en"], n: ["ame"], o: ["ffset"], s: ["kip", "eek"], R: [""],
};

/** The words xxd reads as options, and its operands; or a verdict when that cannot be known. */
export function xxdOperands(args: readonly Arg[]): { operands: readonly Arg[] } | BashVerdict {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = at(args, i);
    const v = arg.value;
    if (v === undefined) return undecidable(`\`xxd\` gets ${arg.text}, computed at run time, where it could be an option or a file it writes`);
    const pp = v.startsWith("--") && v.length > 2 ? v.slice(1) : v;
    if (pp === "--") {
      i++;
      break;
    }
    if (!pp.startsWith("-") || pp.length < 2) break;
    const kind = XXD_OPTIONS[pp.charAt(1)];
    if (kind === undefined || pp.startsWith("--")) return undecidable(`\`xxd ${v}\` is not an option proctor models for xxd`);
    if (kind === "exits") return readOnly(`xxd ${v} prints and exits`);
    if (kind === "flag") continue;
    const rest = pp.slice(2);
    if (rest === "" || kind.some((tail) => tail !== "" && rest.startsWith(tail))) {
      if (i + 1 >= args.length) return readOnly(`\`xxd ${v}\` lacks its value (a usage error)`);
      i++;
    }
  }
  return { operands: args.slice(i) };
}

/** `xxd`: read-only unless a second operand names the file it writes. */
export function classifyXxd(args: readonly Arg[]): BashVerdict {
  const read = xxdOperands(args);
  if ("effect" in read) return read;
  const { operands } = read;
  const computed = operands.find((o) => o.value === undefined);
  // A glob or an unquoted variable may stand for any number of words, an output file among them.
  if (computed) return undecidable(`\`xxd … ${computed.text}\` is computed at run time and may add the file xxd writes`);
  if (operands.length > 2) return readOnly("xxd with more than two operands (a usage error)");
  const out = operands[1];
  if (out && out.value !== "-") return sideEffecting(`\`xxd … ${out.text}\` is the file xxd writes its output to`);
  return readOnly("xxd prints a dump");
}
