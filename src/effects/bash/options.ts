/**
 * Option scanning for commands whose flags decide their effect (`sort -o`, `git branch -D`).
 *
 * Errors only ever go the safe way: an option value is still checked as if it were an option,
 * an argument computed at run time in option position is undecidable (it could be `-i`), and GNU
 * long options match by unambiguous prefix (`sort --outp=x` is `--output`).
 */
import type { Arg, BashVerdict } from "./verdict.js";
import { sideEffecting, undecidable } from "./verdict.js";
import { at } from "../../util/narrow.js";

/** What an option does when present; `undecidable` for options that run another program. */
export type OptionEffect = "writes" | "runs";

export interface OptionSpec {
  /** Short option letters with an effect (`{ o: "writes" }`). */
  readonly short?: Readonly<Record<string, OptionEffect>>;
  /** Long option names (no dashes) with an effect. */
  readonly long?: Readonly<Record<string, OptionEffect>>;
  /** Short letters that take a value: the rest of the cluster, or the next argument. */
  readonly shortValued?: string;
  /** Short letters whose value is optional and must be attached (`-n5`, `-Iseconds`). */
  readonly shortAttached?: string;
  /** Long names that take a value (`--key 2` or `--key=2`). */
  readonly longValued?: readonly string[];
  /** When set, only these options are allowed: anything else is side-effecting. */
  readonly only?: { readonly short: string; readonly long: readonly string[] };
  /** Long options match by unambiguous prefix (GNU getopt_long, git). Default true. */
  readonly prefixes?: boolean;
}

/** The result of scanning: the strongest verdict an option produced, and the operands. */
export interface ScannedOptions {
  readonly verdict?: BashVerdict | undefined;
  readonly operands: readonly Arg[];
  /** Options seen, without dashes (`o`, `output`), for rules that need them. */
  readonly seen: ReadonlySet<string>;
}

function effectVerdict(effect: OptionEffect, command: string, option: string): BashVerdict {
  return effect === "runs"
    ? undecidable(`\`${command} ${option}\` runs another program`)
    : sideEffecting(`\`${command} ${option}\` writes`);
}

function matchLong(name: string, table: readonly string[], prefixes: boolean): string | undefined {
  if (table.includes(name)) return name;
  if (!prefixes || name.length === 0) return undefined;
  return table.find((full) => full.startsWith(name));
}

/** Scan `args` (everything after the command name) against `spec`. */
export function scanOptions(command: string, args: readonly Arg[], spec: OptionSpec): ScannedOptions {
  const prefixes = spec.prefixes ?? true;
  const longEffects = Object.keys(spec.long ?? {});
  const operands: Arg[] = [];
  const seen = new Set<string>();
  let verdict: BashVerdict | undefined;
  const note = (v: BashVerdict) => {
    if (!verdict || (verdict.effect !== "undecidable" && v.effect === "undecidable")) verdict = v;
  };

  /** Check one option word; returns true when it consumes the next argument as its value. */
  const option = (text: string, asValue: boolean): boolean => {
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const name = text.slice(2, eq === -1 ? undefined : eq);
      const effect = matchLong(name, longEffects, prefixes);
      const longEffect = effect === undefined ? undefined : spec.long?.[effect];
      if (effect && longEffect) note(effectVerdict(longEffect, command, `--${effect}`));
      const valued = matchLong(name, spec.longValued ?? [], prefixes);
      if (!asValue) {
        seen.add(valued ?? effect ?? name);
        if (spec.only && !effect && !matchLong(name, spec.only.long, prefixes)) note(sideEffecting(`\`${command} ${text}\` is not a read-only use of ${command}`));
      }
      return valued !== undefined && eq === -1;
    }
    for (let i = 1; i < text.length; i++) {
      const c = text.charAt(i);
      const effect = spec.short?.[c];
      if (effect) note(effectVerdict(effect, command, `-${c}`));
      if (!asValue) {
        seen.add(c);
        if (spec.only && !effect && !spec.only.short.includes(c)) note(sideEffecting(`\`${command} -${c}\` is not a read-only use of ${command}`));
      }
      if (spec.shortAttached?.includes(c)) return false;
      if (spec.shortValued?.includes(c)) return i === text.length - 1;
    }
    return false;
  };

  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const arg = at(args, i);
    if (endOfOptions) {
      operands.push(arg);
      continue;
    }
    if (arg.value === undefined) {
      note(undecidable(`\`${command}\` gets the argument ${arg.text}, computed at run time, where it could be an option`));
      operands.push(arg);
      continue;
    }
    if (arg.value === "--") {
      endOfOptions = true;
      continue;
    }
    if (arg.value.length < 2 || !arg.value.startsWith("-")) {
      operands.push(arg);
      continue;
    }
    if (option(arg.value, false) && i + 1 < args.length) {
      const value = at(args, ++i);
      // A value is never taken on trust: `--key --output=x` is checked as an option too.
      if (value.value?.startsWith("-")) option(value.value, true);
    }
  }
  return { verdict, operands, seen };
}
