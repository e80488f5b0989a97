/**
 * Operands with roles: a tool whose N-th operand is a file it writes (`uniq IN OUT`). The count
 * must hold however the shell and the tool read the words:
 *
 * - an operand computed at run time (a glob, brace expansion, an unquoted variable) may stand for
 *   any number of words, so it may add the output operand, or push one into the output position;
 * - GNU getopt permutes unless POSIXLY_CORRECT is in the tool's environment, and then an option
 *   after the first operand is an operand (`uniq in -fout` writes `-fout`): both readings count.
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { parseArgs, type Grammar } from "./getopt.js";

/** Read-only unless the tool, read either way, gets more than `max` operands; ids in `exits` print and exit. */
export function outputOperandVerdict(grammar: Grammar, args: readonly Arg[], max: number, what: string, exits: readonly string[] = ["help", "version"]): BashVerdict {
  for (const posixlyCorrect of [false, true]) {
    const parsed = parseArgs(grammar, args, { posixlyCorrect });
    if (parsed.verdict) return parsed.verdict;
    const exit = parsed.options.find((o) => exits.includes(o.id));
    if (exit) continue; // prints and exits before opening a file
    const computed = parsed.operands.find((o) => o.value === undefined);
    if (computed) return undecidable(`\`${grammar.command} … ${computed.text}\` is computed at run time and may stand for several words, ${what.replace(/^is /, "one of them ")}`);
    const beyond = parsed.operands[max];
    if (beyond) return sideEffecting(`\`${grammar.command} … ${beyond.text}\` ${what}${posixlyCorrect ? " (read with POSIXLY_CORRECT set, when options after an operand are operands)" : ""}`);
  }
  return readOnly(`${grammar.command} reads`);
}
