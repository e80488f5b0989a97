/**
 * Archives and compressed files, read-only in their listing and to-standard-output forms only.
 * GNU tar, gzip and zipinfo's option tables (tar 1.34, gzip 1.12, unzip 6.0) reduced to what
 * those forms use; anything else may write (side-effecting) or run a program (undecidable).
 * A listing of a compressed archive runs a decompressor found through PATH (gzip, xz, …): like
 * every program name, it is the system's unless a context says otherwise (in-context.ts checks
 * PATH for them, and refuses TAR_OPTIONS, GZIP, UNZIP and ZIPINFO, which add options).
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "./verdict.js";

/** The programs GNU tar and gzip's scripts run through PATH. */
export const DECOMPRESSORS = ["gzip", "bzip2", "xz", "lzip", "lzma", "lzop", "zstd", "compress", "uncompress"];

/** tar letters that change nothing in list mode; `t` is the mode itself. */
const TAR_FLAGS = "tvzjJZaiopmSBRPsnO";
/** tar letters that take a value. */
const TAR_VALUED = "fCbHTXKVN";
const TAR_RUNS: Record<string, string> = { I: "--use-compress-program runs a program", F: "--info-script runs a script", L: "--tape-length makes tar prompt and run volume scripts", M: "--multi-volume makes tar prompt and run volume scripts", g: "--listed-incremental writes its snapshot file", w: "--interactive asks on the terminal", W: "--verify" };
const TAR_LONG_FLAGS = new Set([
  "list", "verbose", "gzip", "gunzip", "ungzip", "bzip2", "xz", "lzma", "lzip", "lzop", "zstd", "compress", "uncompress", "auto-compress", "ignore-zeros",
  "block-number", "numeric-owner", "utc", "full-time", "wildcards", "no-wildcards", "anchored", "no-anchored", "ignore-case", "no-ignore-case", "null",
  "no-null", "force-local", "show-transformed-names", "show-stored-names", "totals", "no-recursion", "recursion", "unquote", "no-unquote",
  "verbatim-files-from", "no-verbatim-files-from", "wildcards-match-slash", "no-wildcards-match-slash", "absolute-names", "same-order", "preserve-order",
]);
const TAR_LONG_VALUED = new Set(["file", "directory", "blocking-factor", "record-size", "format", "files-from", "exclude", "exclude-from", "strip-components", "quoting-style", "warning", "label", "starting-file", "occurrence", "newer", "after-date", "newer-mtime"]);

/**
 * `tar -t` (`--list`): read-only with the listing and selection options above. An archive named
 * `host:file` is opened on another host through rsh (unless `--force-local`).
 */
export function classifyTar(args: readonly Arg[]): BashVerdict {
  let list = false;
  let forceLocal = false;
  const archives: Arg[] = [];
  const flag = (c: string): BashVerdict | undefined => {
    const runs = TAR_RUNS[c];
    if (runs) return undecidable(`\`tar -${c}\`: ${runs}`);
    if (c === "t") list = true;
    else if (!TAR_FLAGS.includes(c) && !TAR_VALUED.includes(c)) return sideEffecting(`\`tar -${c}\` is not a listing option of tar`);
    return undefined;
  };
  let i = 0;
  const takeValue = (c: string, value: Arg | undefined): BashVerdict | undefined => {
    if (value === undefined) return sideEffecting(`\`tar -${c}\` needs a value`);
    if (c === "f") archives.push(value);
    return undefined;
  };
  // The old style: a first word without a dash is a cluster of letters, values taken from the words after it.
  const first = args[0];
  if (first?.value !== undefined && !first.value.startsWith("-")) {
    i = 1;
    for (const c of first.value) {
      const v = flag(c);
      if (v) return v;
      if (TAR_VALUED.includes(c)) {
        const bad = takeValue(c, args[i++]);
        if (bad) return bad;
      }
    }
  }
  let operands = false;
  for (; i < args.length; i++) {
    const arg = args[i] as Arg;
    const v = arg.value;
    if (v === undefined) return undecidable(`\`tar\` gets ${arg.text}, computed at run time, where it could be an option`);
    if (operands || !v.startsWith("-") || v === "-") continue;
    if (v === "--") {
      operands = true;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = v.slice(2, eq === -1 ? undefined : eq);
      if (name === "list") list = true;
      if (name === "force-local") forceLocal = true;
      if (TAR_LONG_FLAGS.has(name) && eq === -1) continue;
      if (!TAR_LONG_VALUED.has(name)) return sideEffecting(`\`tar ${v}\` is not a listing option proctor models`);
      const value = eq === -1 ? args[++i] : { value: v.slice(eq + 1), text: arg.text };
      const bad = takeValue(name === "file" ? "f" : "-", value);
      if (bad) return bad;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v.charAt(k);
      const bad = flag(c);
      if (bad) return bad;
      if (TAR_VALUED.includes(c)) {
        const rest = v.slice(k + 1);
        const badValue = takeValue(c, rest === "" ? args[++i] : { value: rest, text: arg.text });
        if (badValue) return badValue;
        break;
      }
    }
  }
  if (!list) return sideEffecting("`tar` without -t (--list) creates, extracts or changes archives");
  for (const a of archives) {
    if (a.value === undefined) return undecidable(`\`tar -f ${a.text}\`: a name computed at run time could be \`host:file\`, which tar opens through rsh`);
    const colon = a.value.indexOf(":");
    if (colon !== -1 && !a.value.slice(0, colon).includes("/") && !forceLocal) return sideEffecting(`\`tar -f ${a.value}\` opens an archive on another host through rsh`);
  }
  return readOnly("tar lists an archive");
}

const GZIP_FLAGS = "cdfklLnNqrtvVh123456789";
const GZIP_READERS = "ctlLVh";
const GZIP_LONG = new Set(["stdout", "to-stdout", "decompress", "uncompress", "force", "keep", "list", "license", "no-name", "name", "quiet", "recursive", "test", "verbose", "version", "help", "fast", "best", "rsyncable", "synchronous"]);
const GZIP_LONG_READERS = new Set(["stdout", "to-stdout", "list", "license", "test", "version", "help"]);

/**
 * `gzip`/`gunzip` write their output files unless `-c` (standard output), `-t` (test) or `-l`
 * (list) is given; `zcat` is `gzip -cd`. gzip permutes its options, so one after a file counts.
 */
export function classifyGzip(command: string, args: readonly Arg[]): BashVerdict {
  let reads = command === "zcat";
  let operands = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const v = arg.value;
    if (v === undefined) return undecidable(`\`${command}\` gets ${arg.text}, computed at run time, where it could be an option`);
    if (operands || !v.startsWith("-") || v === "-") continue;
    if (v === "--") {
      operands = true;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = v.slice(2, eq === -1 ? undefined : eq);
      if (name === "suffix") {
        if (eq === -1) i++;
        continue;
      }
      if (!GZIP_LONG.has(name) || eq !== -1) return sideEffecting(`\`${command} ${v}\` is not an option proctor models`);
      if (GZIP_LONG_READERS.has(name)) reads = true;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v.charAt(k);
      if (c === "S") {
        if (k === v.length - 1) i++;
        break;
      }
      if (!GZIP_FLAGS.includes(c)) return sideEffecting(`\`${command} -${c}\` is not an option proctor models`);
      if (GZIP_READERS.includes(c)) reads = true;
    }
  }
  return reads ? readOnly(`${command} writes to standard output only`) : sideEffecting(`\`${command}\` without -c, -t or -l writes its output files`);
}

/**
 * zipinfo (and `unzip -Z`, which must come first) only lists: `-1 -2 -s -m -l -v -h -M -t -T -z`
 * and `-x` (exclude the names after it). None of its options extracts.
 */
export function classifyZipinfo(command: string, args: readonly Arg[]): BashVerdict {
  for (const a of args) {
    if (a.value === undefined) return undecidable(`\`${command}\` gets ${a.text}, computed at run time, where it could be an option`);
    if (a.value.startsWith("-") && a.value !== "-" && !/^-[Z12smlvhMtTzxC]+$/.test(a.value)) return sideEffecting(`\`${command} ${a.value}\` is not a zipinfo option proctor models`);
  }
  return readOnly("zipinfo lists an archive");
}
