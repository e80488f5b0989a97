/**
 * Command lines for the differential fuzzer, built from each tool's real option table
 * (src/effects/bash/tools/option-tables.json) and, for tools that are not getopt, from their
 * source-read grammars: short clusters with attached values, long options whole or abbreviated,
 * `--opt=value` and values in the next word, options after operands, `--`, globs and brace
 * expansions over the fixture (`two/*` is exactly two files), scripts and programs that write.
 * Each case may also run with POSIXLY_CORRECT in its environment.
 */
import fc from "fast-check";
import tables from "../../src/effects/bash/tools/option-tables.json" with { type: "json" };

type Kind = "none" | "required" | "optional";
interface Table {
  short: Record<string, Kind>;
  long: Record<string, Kind>;
}
const TABLES = tables as unknown as Record<string, Table>;

/** getopt tools worth fuzzing: the classifier reads their options, or they take file operands. */
export const GETOPT_FUZZED = ["uniq", "sort", "sed", "diff", "grep", "tee", "head", "cut", "wc", "cat", "od", "nl", "comm", "join", "paste", "date", "cmp", "base64"];
/** Options that only make a run slow (follow a file forever, wait for a process). */
const SLOW = new Set(["follow", "pid", "retry", "f", "F", "s"]);

export interface FuzzCase {
  readonly command: string;
  /** Run with POSIXLY_CORRECT=1 in the environment (the classifier does not know the environment). */
  readonly posix: boolean;
}

const q = (w: string) => (/^[A-Za-z0-9_./=,:+@%-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

const VALUES = ["1", "2", "x", "out", "in", ".bak", "never", "p", "w out", "s/a/b/w out", "%s", "-o", "--output=out", "e touch ran"];
const OPERANDS = ["in", "in2", "out", "new", "-", "two/a", "two/b", "list", "x.zip"];
/** Raw shell text that expands to words: written unquoted. */
const EXPANSIONS = ["two/*", "{in,out}", "t?o/*", "two/{a,b}", "$HOME", "$(echo out)", "*"];

const raw = (text: string) => ({ raw: text });
type Word = string | { raw: string };

function render(words: readonly Word[]): string {
  return words.map((w) => (typeof w === "string" ? q(w) : w.raw)).join(" ");
}

function getoptWords(tool: string): fc.Arbitrary<Word[]> {
  const t = TABLES[tool] as Table;
  const shorts = Object.keys(t.short).filter((c) => !SLOW.has(c) || tool !== "tail");
  const longs = Object.keys(t.long).filter((n) => !n.startsWith("-") && !SLOW.has(n));
  const value = fc.constantFrom(...VALUES);
  const shortOpt = fc.tuple(fc.array(fc.constantFrom(...shorts), { minLength: 1, maxLength: 3 }), fc.option(value, { nil: undefined, freq: 2 }), fc.boolean()).map(([cs, v, separate]): Word[] => {
    const last = cs[cs.length - 1] ?? "";
    const takes = t.short[last] ?? "none";
    if (v === undefined || takes === "none") return [`-${cs.join("")}`];
    return separate && takes === "required" ? [`-${cs.join("")}`, v] : [`-${cs.join("")}${v}`];
  });
  const longOpt = fc.tuple(fc.constantFrom(...longs), fc.integer({ min: 2, max: 20 }), value, fc.constantFrom("eq", "next", "none")).map(([name, cut, v, how]): Word[] => {
    const spelled = `--${name.slice(0, Math.min(name.length, cut))}`;
    const takes = t.long[name] ?? "none";
    if (takes === "none" || how === "none") return [spelled];
    return how === "eq" || takes === "optional" ? [`${spelled}=${v}`] : [spelled, v];
  });
  return fc.array(fc.oneof(shortOpt, longOpt, operandWord()), { minLength: 1, maxLength: 5 }).map((parts) => parts.flat());
}

function operandWord(): fc.Arbitrary<Word[]> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...OPERANDS).map((o): Word[] => [o]), weight: 5 },
    { arbitrary: fc.constantFrom(...EXPANSIONS).map((e): Word[] => [raw(e)]), weight: 1 },
    { arbitrary: fc.constant<Word[]>(["--"]), weight: 1 },
  );
}

/** xxd's own option words (two letters, long spellings, attached values). */
const XXD_WORDS = ["-a", "-b", "-C", "-d", "-e", "-E", "-i", "-p", "-ps", "-postscript", "-r", "-u", "-c", "-c8", "-cols", "-g", "-g2", "-groupsize", "-l", "-l4", "-len", "-s", "-s1", "-seek", "-n", "-name", "-o", "-o1", "-R", "--ps", "--cols", "-h", "-v", "8", "1"];
const UNZIP_WORDS = ["-l", "-v", "-t", "-p", "-c", "-q", "-z", "-x", "-d", "-o", "-n", "-Z", "-Z1", "-lq", "-M", "-1", "-T"];
const AWK_PROGRAMS = ["{print}", "{print > \"out\"}", "BEGIN{system(\"touch ran\")}", "NR==1", "{print | \"cat\"}"];
const AWK_WORDS = ["-F:", "-F", ":", "-v", "x=1", "-f", "in", "--", "-W", "version", "-Wv"];
const XARGS_COMMANDS = ["grep a", "cat", "wc -l", "sort", "uniq", "touch", "rm", "head -n1", "sed p", "xxd"];
const XARGS_WORDS = ["-0", "-n1", "-n", "1", "-r", "-t", "-I{}", "-i", "--show-limits", "-x", "--version", "-a", "list", "-E", "x", "-P2", "-L1", "-l"];

function fromWords(tool: string, words: readonly string[], extra: fc.Arbitrary<Word[]> = operandWord()): fc.Arbitrary<Word[]> {
  return fc.array(fc.oneof(fc.constantFrom(...words).map((w) => [w] as Word[]), extra), { minLength: 1, maxLength: 5 }).map((parts) => [tool, ...parts.flat()]);
}

/** One fuzz case. */
export function fuzzCase(): fc.Arbitrary<FuzzCase> {
  const getopt = fc.constantFrom(...GETOPT_FUZZED.filter((t) => t in TABLES)).chain((tool) => getoptWords(tool).map((w) => [tool, ...w] as Word[]));
  const xxd = fromWords("xxd", XXD_WORDS);
  const unzip = fromWords("unzip", UNZIP_WORDS);
  const awk = fc.tuple(fc.array(fc.constantFrom(...AWK_WORDS), { maxLength: 3 }), fc.constantFrom(...AWK_PROGRAMS), fc.array(fc.constantFrom(...AWK_WORDS, ...OPERANDS), { maxLength: 3 })).map(([pre, prog, post]): Word[] => ["awk", ...pre, prog, ...post]);
  const xargs = fc.tuple(fc.array(fc.constantFrom(...XARGS_WORDS), { maxLength: 3 }), fc.constantFrom(...XARGS_COMMANDS), fc.constantFrom("in out", "-o out in", "two/a two/b", "in")).map(([opts, cmd, input]) => ({ raw: `echo ${input} | xargs ${opts.map(q).join(" ")} ${cmd}` }));
  const words = fc.oneof({ arbitrary: getopt, weight: 6 }, xxd, unzip, awk);
  const command = fc.oneof({ arbitrary: words.map(render), weight: 6 }, xargs.map((x) => x.raw));
  return fc.record({ command, posix: fc.boolean() });
}
