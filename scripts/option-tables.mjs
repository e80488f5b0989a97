#!/usr/bin/env node
/**
 * Reads the option tables of the classifier's read-only tools from the installed programs
 * (`--help`, and the version line it was read from) into src/effects/bash/tools/option-tables.json.
 * Where a tool's help is incomplete or says something its parser does not do, SOURCE_NOTES adds
 * or corrects the entry and says why (read from the tool's source, or shown with the real tool).
 *
 *   node scripts/option-tables.mjs          # rewrite the JSON
 *   node scripts/option-tables.mjs --check  # exit 1 when the installed tools disagree with it
 *
 * test/effects/option-tables.test.ts runs the same reading and fails on any difference.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "effects", "bash", "tools", "option-tables.json");

/** GNU getopt_long tools whose `--help` lists every option in the usual layout. */
export const GETOPT_TOOLS = [
  // coreutils
  "cat", "tac", "nl", "head", "tail", "wc", "ls", "dir", "vdir", "stat", "readlink", "realpath", "basename", "dirname",
  "cut", "tr", "paste", "join", "comm", "fold", "fmt", "expand", "unexpand", "od", "cksum", "sum", "md5sum", "sha1sum",
  "sha256sum", "sha512sum", "b2sum", "base32", "base64", "du", "df", "seq", "whoami", "id", "groups", "uname", "nproc",
  "printenv", "tty", "sleep", "uniq", "sort", "date", "tee",
  // diffutils, grep, sed, findutils
  "diff", "cmp", "grep", "sed", "xargs",
];

/**
 * Corrections from the tools' sources, each with its reason. `add` entries are options the help
 * does not list; `set` entries override what the help says.
 */
export const SOURCE_NOTES = {
  uniq: { add: { short: Object.fromEntries([..."0123456789"].map((d) => [d, "none"])) }, why: "uniq.c's getopt string \"-0123456789Dcdf:is:uw:z\": the obsolete -N (skip N fields)" },
  tail: { add: { long: { "-presume-input-pipe": "none" } }, why: "tail.c: `---presume-input-pipe`, an undocumented long option (three dashes)" },
  head: { add: { short: Object.fromEntries([..."0123456789"].map((d) => [d, "none"])) }, why: "head.c: the obsolete -NUM form, read before getopt" },
  grep: { add: { short: Object.fromEntries([..."0123456789"].map((d) => [d, "none"])), long: { "line-buffered": "none" } }, why: "grep.c: -NUM is --context=NUM; digits are options in its getopt string" },
  xargs: { set: { long: { "max-lines": "optional" } }, why: "xargs.c: {\"max-lines\", optional_argument, …, 'l'}; the help shows `--max-lines=MAX-LINES` (measured: `xargs --max-lines echo x` runs echo)" },
  sort: {
    add: { short: { y: "required" } },
    set: { short: { c: "none" }, long: { check: "optional" } },
    why: "sort.c: an ignored -y ARG for old scripts in its getopt string (measured: `sort -y` wants a value); {\"check\", optional_argument} and -c takes nothing (help: `-c, --check, --check=diagnose-first`)",
  },
  ls: { set: { short: { F: "none" } }, why: "ls.c's getopt string: -F takes nothing, --classify[=WHEN] an optional value" },
  dir: { set: { short: { F: "none" } }, why: "ls.c (dir is ls): -F takes nothing" },
  vdir: { set: { short: { F: "none" } }, why: "ls.c (vdir is ls): -F takes nothing" },
  diff: {
    add: { long: Object.fromEntries(["old-group-format", "new-group-format", "unchanged-group-format", "changed-group-format", "old-line-format", "new-line-format", "unchanged-line-format"].map((n) => [n, "required"])) },
    drop: { long: ["GTYPE-group-format", "LTYPE-line-format"] },
    why: "the help's --GTYPE-group-format and --LTYPE-line-format stand for these (diff.c's long options)",
  },
  sed: { add: { short: { s: "none" } }, why: "sed.c's short options (help lists -s under --separate)" },
};

const TOOL_VERSION_ARGS = { default: ["--version"] };

function run(tool, args) {
  try {
    return execFileSync(tool, args, { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" }, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    return typeof e.stdout === "string" && e.stdout !== "" ? e.stdout : undefined;
  }
}

/** Parse one option-spec column of a help line (`-k, --key=KEYDEF`, `-i[SUFFIX], --in-place[=SUFFIX]`). */
export function parseSpec(spec, short, long, pairs = {}) {
  const items = spec.split(/,\s*/).map((s) => s.trim()).filter(Boolean);
  const shorts = [];
  let longKind;
  for (const item of items) {
    let m = /^--([A-Za-z0-9][\w-]*)(\[=[^\]]*\]|=\S*| [A-Z][\w-]*)?$/.exec(item);
    if (m) {
      let kind = m[2] === undefined ? "none" : m[2].startsWith("[=") ? "optional" : "required";
      // Listed once bare and once with a value (du's `--time` and `--time=WORD`): optional.
      const before = long[m[1]];
      if (before !== undefined && before !== kind) kind = "optional";
      long[m[1]] = kind;
      // A lower-case value is a literal (`-p, --indicator-style=slash`: -p takes nothing); a
      // placeholder is upper-case (`-k, --key=KEYDEF`). Only a placeholder passes to the short.
      longKind = kind !== "none" && !/[A-Z]/.test(m[2] ?? "") ? "none" : kind;
      continue;
    }
    if (/^-NUM$/.test(item)) {
      for (const d of "0123456789") short[d] = "none";
      continue;
    }
    m = /^-([A-Za-z0-9])(\[[^\]]*\]| \S+)?$/.exec(item);
    if (m) shorts.push([m[1], m[2] === undefined ? undefined : m[2].startsWith("[") ? "optional" : "required"]);
  }
  // GNU convention: mandatory and optional arguments to long options are so for the short option
  // too, when a line pairs one short with its long option.
  for (const [c, kind] of shorts) short[c] = kind ?? (shorts.length === 1 && longKind !== undefined ? longKind : "none");
  const longs = items.filter((i) => i.startsWith("--")).map((i) => /^--([\w-]+)/.exec(i)?.[1]);
  if (shorts.length === 1 && longs[0] !== undefined) pairs[shorts[0][0]] = longs[0];
}

/** The options `--help` lists: lines indented by up to 8 blanks that start with `-`. */
export function parseHelp(text) {
  const short = {};
  const long = {};
  const pairs = {};
  for (const line of text.split("\n")) {
    const m = /^[ \t]{1,8}(-.*)$/.exec(line);
    if (!m) continue;
    // stat writes `-c  --format=FORMAT`: two blanks between a short and its long option.
    const spec = m[1].replace(/^(-\w) {2,}(?=--)/, "$1, ").split(/ {2,}|\t/)[0] ?? "";
    parseSpec(spec, short, long, pairs);
  }
  return { short, long, pairs };
}

function sorted(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The table for one tool as the installed program reports it; undefined when it is not installed. */
export function readTool(tool) {
  const help = run(tool, ["--help"]);
  const versionText = run(tool, TOOL_VERSION_ARGS[tool] ?? TOOL_VERSION_ARGS.default);
  if (help === undefined || versionText === undefined) return undefined;
  const { short, long, pairs } = parseHelp(help);
  const note = SOURCE_NOTES[tool];
  if (note?.add) {
    Object.assign(short, note.add.short ?? {});
    Object.assign(long, note.add.long ?? {});
  }
  for (const name of note?.drop?.long ?? []) delete long[name];
  if (note?.set) {
    Object.assign(short, note.set.short ?? {});
    Object.assign(long, note.set.long ?? {});
  }
  return {
    version: versionText.split("\n")[0].trim(),
    parser: "getopt_long",
    source: note ? `--help; ${note.why}` : "--help",
    short: sorted(short),
    long: sorted(long),
    /** Short letters and the long option they spell (`o` → `output`), where the help pairs them. */
    pairs: sorted(pairs),
  };
}

export function readAll() {
  const tables = {};
  for (const tool of GETOPT_TOOLS) {
    const t = readTool(tool);
    if (t) tables[tool] = t;
  }
  return tables;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tables = readAll();
  const text = `${JSON.stringify(tables, null, 1)}\n`;
  if (process.argv.includes("--check")) {
    const old = readFileSync(OUT, "utf8");
    if (old !== text) {
      process.stderr.write("option-tables.json differs from the installed tools; run node scripts/option-tables.mjs\n");
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, text);
    process.stdout.write(`${Object.keys(tables).length} tools → ${OUT}\n`);
  }
}
