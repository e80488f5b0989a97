/**
 * Known wording changes between claude versions. A recording made on one claude and replayed on
 * another can differ in text the CLI itself writes around a tool's answer, with nothing changed in
 * what the plugin, hook or tool decided. Those differences are "version drift": reported apart from
 * behaviour divergences, never hidden and never counted as a match of something else.
 *
 * Found by replaying the same script on 2.1.197 and 2.1.332 and comparing every tool result
 * (docs/harness.md lists what was compared). Add a row when a new claude rewords its own text.
 */

/** One known rewording by the CLI. */
export interface WordingChange {
  readonly id: string;
  /** The first claude version with the new wording (found with `proctor bisect`). */
  readonly since: string;
  readonly description: string;
  /** The text with this change undone (both sides are normalised, so either wording maps to one). */
  readonly normalise: (text: string) => string;
}

export const KNOWN_WORDING_CHANGES: readonly WordingChange[] = [
  {
    id: "hook-deny-prefix",
    since: "2.1.281",
    description: "a PreToolUse hook's deny reason reaches the model prefixed `PreToolUse:<Tool> hook error: `",
    normalise: (text) => text.replace(/^(<tool_use_error>)?PreToolUse:[\w.:-]+ hook error: /, "$1"),
  },
];

/** `text` with every known rewording undone, and the ids of the changes that applied. */
export function normaliseWording(text: string, changes: readonly WordingChange[] = KNOWN_WORDING_CHANGES): { text: string; applied: string[] } {
  let out = text;
  const applied: string[] = [];
  for (const change of changes) {
    const next = change.normalise(out);
    if (next !== out) applied.push(change.id);
    out = next;
  }
  return { text: out, applied };
}

/**
 * Do `recorded` and `now` differ only by known rewordings? The ids of the changes that explain the
 * difference; undefined when the texts are equal or differ in more than wording.
 */
export function wordingDrift(recorded: string, now: string, changes: readonly WordingChange[] = KNOWN_WORDING_CHANGES): string[] | undefined {
  if (recorded === now) return undefined;
  const a = normaliseWording(recorded, changes);
  const b = normaliseWording(now, changes);
  if (a.text !== b.text) return undefined;
  return [...new Set([...a.applied, ...b.applied])];
}
