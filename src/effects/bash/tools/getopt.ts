/**
 * A strict reader of a tool's command-line grammar, the way GNU `getopt_long` reads it: short
 * clusters (`-ni`), values attached or separate (`-e s`, `-es`, `--file=f`, `--file f`), optional
 * values only when attached (`-i.bak`, `--in-place=.bak`), unambiguous long prefixes, `--`.
 *
 * Unlike `scanOptions` (a denylist of effects over a partly known grammar), this is an
 * allow-list: an option the grammar does not list makes the command undecidable, because an
 * unknown option of a tool that can write or run programs may do either. Rules receive the
 * options in order and decide what they mean.
 */
import { undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { at, ownEntry } from "../../../util/narrow.js";

/** How an option takes its value. */
export type ValueKind = "none" | "required" | "optional";

/** One option of a grammar. `id` groups spellings (`-n`, `--quiet`, `--silent` → `n`). */
export interface OptionDef {
  readonly id: string;
  readonly value?: ValueKind;
}

export interface Grammar {
  /** The command as it is named in messages. */
  readonly command: string;
  readonly short: Readonly<Record<string, OptionDef>>;
  readonly long: Readonly<Record<string, OptionDef>>;
  /** GNU: long options match by unambiguous prefix. Default true. */
  readonly abbreviations?: boolean;
  /** GNU: options may follow operands. False for tools that stop at the first operand (`xargs`, `env`). Default true. */
  readonly permute?: boolean;
}

/** One option as the tool reads it. */
export interface ParsedOption {
  readonly id: string;
  /** The spelling, for messages (`-i`, `--in-place`). */
  readonly spelling: string;
  /** The value, when the option took one. */
  readonly value?: Arg;
}

export interface ParsedArgs {
  /** Set when the arguments cannot be read soundly (unknown option, computed argument). */
  readonly verdict?: BashVerdict;
  readonly options: readonly ParsedOption[];
  readonly operands: readonly Arg[];
  /** Index in `args` of the first argument after the options, for tools that stop there. */
  readonly rest: number;
}

function findLong(grammar: Grammar, name: string): [string, OptionDef] | "ambiguous" | undefined {
  const exact = ownEntry(grammar.long, name);
  if (exact) return [name, exact];
  if (grammar.abbreviations === false || name === "") return undefined;
  const matches = Object.keys(grammar.long).filter((full) => full.startsWith(name));
  const [first] = matches;
  const def = first === undefined ? undefined : grammar.long[first];
  if (first === undefined || !def) return undefined;
  // getopt_long accepts an ambiguous prefix when every candidate is the same option (same
  // value kind and meaning); otherwise it reports the prefix as ambiguous and exits.
  const ids = new Set(matches.map((m) => `${grammar.long[m]?.id}\u0000${grammar.long[m]?.value ?? "none"}`));
  if (ids.size > 1) return "ambiguous";
  return [first, def];
}

/** How the tool is run: GNU getopt stops permuting when POSIXLY_CORRECT is in its environment. */
export interface ParseMode {
  readonly posixlyCorrect?: boolean;
}

/** Read `args` (everything after the command name) against `grammar`. */
export function parseArgs(grammar: Grammar, args: readonly Arg[], mode: ParseMode = {}): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: Arg[] = [];
  const permute = (grammar.permute ?? true) && mode.posixlyCorrect !== true;
  const stop = (verdict: BashVerdict, rest: number): ParsedArgs => ({ verdict, options, operands, rest });
  let i = 0;
  for (; i < args.length; i++) {
    const arg = at(args, i);
    const v = arg.value;
    // Still in option position (a non-permuting tool has stopped at its first operand already).
    if (v === undefined) return stop(undecidable(`\`${grammar.command}\` gets the argument ${arg.text}, computed at run time, where it could be an option`), i);
    if (v === "-" || !v.startsWith("-")) {
      if (!permute) break;
      operands.push(arg);
      continue;
    }
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("--")) {
      const body = v.slice(2);
      const eq = body.indexOf("=");
      const name = eq === -1 ? body : body.slice(0, eq);
      const found = findLong(grammar, name);
      if (found === "ambiguous") return stop(undecidable(`\`${grammar.command} --${name}\` is an ambiguous option`), i);
      if (!found) return stop(undecidable(`\`${grammar.command} ${clipOption(v)}\` is not an option proctor models for ${grammar.command}`), i);
      const [full, def] = found;
      const spelling = `--${full}`;
      const kind = def.value ?? "none";
      if (eq !== -1) {
        if (kind === "none") return stop(undecidable(`\`${grammar.command} ${spelling}\` takes no value`), i);
        options.push({ id: def.id, spelling, value: { value: body.slice(eq + 1), text: arg.text } });
      } else if (kind === "required") {
        if (i + 1 >= args.length) return stop(undecidable(`\`${grammar.command} ${spelling}\` lacks its value`), i);
        options.push({ id: def.id, spelling, value: at(args, ++i) });
      } else {
        options.push({ id: def.id, spelling });
      }
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const def = ownEntry(grammar.short, v.charAt(j));
      const spelling = `-${v.charAt(j)}`;
      if (!def) return stop(undecidable(`\`${grammar.command} ${spelling}\` is not an option proctor models for ${grammar.command}`), i);
      const kind = def.value ?? "none";
      if (kind === "none") {
        options.push({ id: def.id, spelling });
        continue;
      }
      const attached = v.slice(j + 1);
      if (attached !== "") options.push({ id: def.id, spelling, value: { value: attached, text: arg.text } });
      else if (kind === "optional") options.push({ id: def.id, spelling });
      else if (i + 1 >= args.length) return stop(undecidable(`\`${grammar.command} ${spelling}\` lacks its value`), i);
      else options.push({ id: def.id, spelling, value: at(args, ++i) });
      break;
    }
  }
  operands.push(...args.slice(i));
  return { options, operands, rest: i };
}

function clipOption(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * A grammar built on its first use. `proctor gate` starts a process per tool call, and most calls
 * never meet a given command: building every command's option table at start-up cost more than
 * the calls that read one.
 */
export function grammar(build: () => Grammar): () => Grammar {
  let built: Grammar | undefined;
  return () => (built ??= build());
}

/** One option definition: `opt("e", "required")`. */
export function opt(id: string, value: ValueKind = "none"): OptionDef {
  return { id, value };
}
