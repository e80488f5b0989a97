/** The three-way verdict of the shell classifier, and how verdicts combine. */

/**
 * - `read-only`: provably only observes — every command is a known inspection command used
 *   without a mutating flag, with no write redirection and nothing computed at run time that could
 *   change that.
 * - `side-effecting`: runs something that changes state, or something not known to be read-only
 *   (an unknown command is side-effecting until proven otherwise).
 * - `undecidable`: what runs cannot be known from the text — `eval`, `sh -c`, `xargs`, a command
 *   name or option computed at run time, background jobs, `while`/`case`, function definitions,
 *   builtins and expansions that evaluate a variable's value, text Bash would read differently
 *   from the parser, and commands past the size and nesting caps.
 */
export type BashEffect = "read-only" | "side-effecting" | "undecidable";

/** A verdict with the reason that decided it (the first thing that made it not read-only). */
export interface BashVerdict {
  readonly effect: BashEffect;
  readonly reason: string;
}

const RANK: Record<BashEffect, number> = { "read-only": 0, "side-effecting": 1, undecidable: 2 };

export const readOnly = (reason: string): BashVerdict => ({ effect: "read-only", reason });
export const sideEffecting = (reason: string): BashVerdict => ({ effect: "side-effecting", reason });
export const undecidable = (reason: string): BashVerdict => ({ effect: "undecidable", reason });

/** The stronger of two verdicts (`undecidable` > `side-effecting` > `read-only`); ties keep the first. */
export function worse(a: BashVerdict, b: BashVerdict): BashVerdict {
  return RANK[b.effect] > RANK[a.effect] ? b : a;
}

/** One argument of a simple command: its value when it is fixed text, else `undefined`. */
export interface Arg {
  /** The argument after quote removal; `undefined` when expansion makes it unknowable. */
  readonly value?: string | undefined;
  /** The argument as written, for messages. */
  readonly text: string;
}
