/**
 * `yq`: two unrelated programs share the name — mikefarah's (Go) and kislyuk's (Python, a jq
 * wrapper) — so the grammar is their common ground and each option means the worse of its two
 * readings: `-s` is mikefarah's `--split-exp` (writes one file per document), not jq's slurp.
 * Neither expression language can write or run a program (`load`, `load_str`, `env` only read).
 */
import { readOnly, sideEffecting, type Arg, type BashVerdict } from "../verdict.js";
import { grammar, opt, parseArgs } from "./getopt.js";

const V = "required" as const;

const YQ = grammar(() => ({
  command: "yq",
  short: {
    i: opt("inplace"), s: opt("split", V), r: opt("fine"), e: opt("fine"), n: opt("fine"), N: opt("fine"), P: opt("fine"),
    C: opt("fine"), M: opt("fine"), j: opt("fine"), c: opt("fine"), y: opt("fine"), Y: opt("fine"), S: opt("fine"),
    "0": opt("fine"), v: opt("fine"), V: opt("fine"), h: opt("fine"), o: opt("fine", V), p: opt("fine", V), I: opt("fine", V),
    f: opt("fine", V),
  },
  long: {
    inplace: opt("inplace"), "in-place": opt("inplace"), "split-exp": opt("split", V), "split-exp-file": opt("split", V),
    "output-format": opt("fine", V), "input-format": opt("fine", V), indent: opt("fine", V), "front-matter": opt("fine", V),
    "from-file": opt("fine", V), expression: opt("fine", V), prettyPrint: opt("fine"), colors: opt("fine"),
    "no-colors": opt("fine"), "exit-status": opt("fine"), "null-input": opt("fine"), "no-doc": opt("fine"),
    "nul-output": opt("fine"), unwrapScalar: opt("fine"), verbose: opt("fine"), version: opt("fine"), help: opt("fine"),
    "yaml-output": opt("fine"), "yaml-roundtrip": opt("fine"), "raw-output": opt("fine"), "compact-output": opt("fine"),
    "sort-keys": opt("fine"), tab: opt("fine"), "xml-output": opt("fine"), width: opt("fine", V),
  },
  // cobra (mikefarah) does not take abbreviations; argparse (kislyuk) does, so a prefix counts.
  abbreviations: true,
}));

/** Classify `yq ARGS`. */
export function classifyYq(args: readonly Arg[]): BashVerdict {
  const parsed = parseArgs(YQ(), args);
  if (parsed.verdict) return parsed.verdict;
  for (const o of parsed.options) {
    if (o.id === "inplace") return sideEffecting(`\`yq ${o.spelling}\` rewrites its input files`);
    if (o.id === "split") return sideEffecting(`\`yq ${o.spelling}\` writes a file per document (mikefarah's yq)`);
  }
  return readOnly("yq prints only");
}
