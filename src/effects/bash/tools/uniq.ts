/**
 * GNU `uniq [OPTION]… [INPUT [OUTPUT]]`: the second operand is a file uniq truncates and writes.
 * The option table is coreutils' (option-tables.json checks it against the installed uniq),
 * plus the obsolete `-N` (skip N fields) that uniq's getopt string still carries. Its getopt
 * string starts with `-` (operands in order), yet uniq itself stops reading options after its
 * first file under POSIXLY_CORRECT (`uniq x --unique` then writes `--unique`; found by the fuzzer).
 */
import type { Arg, BashVerdict } from "../verdict.js";
import { grammar, opt } from "./getopt.js";
import { outputOperandVerdict } from "./operands.js";

const R = "required" as const;
const O = "optional" as const;

export const UNIQ = grammar(() => ({
  command: "uniq",
  short: {
    c: opt("count"), d: opt("repeated"), D: opt("all-repeated"), f: opt("skip-fields", R), i: opt("ignore-case"),
    s: opt("skip-chars", R), u: opt("unique"), w: opt("check-chars", R), z: opt("zero-terminated"),
    ...Object.fromEntries([..."0123456789"].map((d) => [d, opt("obsolete-skip-fields")])),
  },
  long: {
    count: opt("count"), repeated: opt("repeated"), "all-repeated": opt("all-repeated", O), "skip-fields": opt("skip-fields", R),
    group: opt("group", O), "ignore-case": opt("ignore-case"), "skip-chars": opt("skip-chars", R), unique: opt("unique"),
    "zero-terminated": opt("zero-terminated"), "check-chars": opt("check-chars", R), help: opt("help"), version: opt("version"),
  },
}));

export function classifyUniq(args: readonly Arg[]): BashVerdict {
  return outputOperandVerdict(UNIQ(), args, 1, "is the file uniq writes its output to");
}
