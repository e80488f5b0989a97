/**
 * Info-ZIP `unzip`: options come before the archive; after it, every word is a member name
 * (`unzip x.zip -l` extracts a member named `-l`), except `-x` (members to leave out) and `-d`
 * (where to extract). Read-only only for listing (-l, -v, -Z), testing (-t) and printing to
 * standard output (-p, -c), chosen before the archive name. `-Z` first is zipinfo mode, which only
 * lists (its options `-1 -2 -s -m -l -v -h -t -T -z -C`; `-M` pipes through a pager and is left out).
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "../verdict.js";

export function classifyUnzip(args: readonly Arg[]): BashVerdict {
  const zipinfo = args[0]?.value?.startsWith("-Z") === true;
  let reads = false;
  let archive = false;
  for (const a of args) {
    if (a.value === undefined) return undecidable(`\`unzip\` gets ${a.text}, computed at run time, where it could be an option or a member to extract`);
    if (archive) {
      if (a.value === "-x") continue;
      if (a.value.startsWith("-")) return sideEffecting(`\`unzip … ${a.value}\` after the archive name is ${a.value === "-d" ? "where unzip extracts" : "a member name to extract, not an option"}`);
      continue;
    }
    if (!a.value.startsWith("-") || a.value === "-") {
      archive = true;
      continue;
    }
    if (zipinfo) {
      if (!/^-Z?[12smlvhtTzC]*$/.test(a.value) || (a !== args[0] && a.value.startsWith("-Z"))) return sideEffecting(`\`unzip -Z … ${a.value}\` is not a listing option of zipinfo`);
      continue;
    }
    if (!/^-[lvtpcqzx]+$/.test(a.value)) return sideEffecting(`\`unzip ${a.value}\` is not a listing option of unzip`);
    if (/[lvtpc]/.test(a.value)) reads = true;
  }
  if (zipinfo) return readOnly("unzip -Z (zipinfo) lists an archive");
  return reads ? readOnly("unzip lists or prints an archive") : sideEffecting("`unzip` without -l, -v, -t, -p or -c extracts files");
}
