/** Terminal colour that respects NO_COLOR, FORCE_COLOR and whether the output is a terminal. */

/** A palette: each function wraps text, or returns it unchanged when colour is off. */
export interface Palette {
  readonly enabled: boolean;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly blue: (text: string) => string;
  readonly magenta: (text: string) => string;
  readonly cyan: (text: string) => string;
}

/**
 * Colour on a terminal unless NO_COLOR is set (any non-empty value, per no-color.org) or TERM is
 * `dumb`; FORCE_COLOR (not `0`/`false`) turns it on anywhere, e.g. for CI logs that render ANSI.
 */
export function shouldColour(stream: { readonly isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** Build the palette; `enabled: false` gives identity functions so the text is plain. */
export function createPalette(enabled: boolean): Palette {
  const wrap = (open: number, close: number) => (enabled ? (text: string) => `\x1b[${open}m${text}\x1b[${close}m` : (text: string) => text);
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    blue: wrap(34, 39),
    magenta: wrap(35, 39),
    cyan: wrap(36, 39),
  };
}
