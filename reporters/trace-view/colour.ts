/** Terminal colour that respects NO_COLOR, FORCE_COLOR and whether the output is a terminal. */
import { styleText } from "node:util";

type StyleFormat = Parameters<typeof styleText>[0];

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
export function shouldColour(stream: { readonly isTTY?: boolean } = process.stdout, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** Build the palette; `enabled: false` gives identity functions so the text is plain. */
export function createPalette(enabled: boolean): Palette {
  // The decision is shouldColour's (it knows the stream written to); styleText only draws.
  const wrap = (format: StyleFormat) => (enabled ? (text: string) => styleText(format, text, { validateStream: false }) : (text: string) => text);
  return {
    enabled,
    bold: wrap("bold"),
    dim: wrap("dim"),
    red: wrap("red"),
    green: wrap("green"),
    yellow: wrap("yellow"),
    blue: wrap("blue"),
    magenta: wrap("magenta"),
    cyan: wrap("cyan"),
  };
}
