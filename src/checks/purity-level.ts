/** Validating a purity level without loading the shell classifier (checkFromJSON does it eagerly). */
import { PURITY_LEVELS, type PurityLevel } from "../effects/effects.js";
import { InvalidCheckError } from "./validate.js";

/** A purity level, validated at build time. */
export function requirePurity(kind: string, field: string, value: unknown): asserts value is PurityLevel {
  if (!PURITY_LEVELS.includes(value as PurityLevel)) throw new InvalidCheckError(kind, field, `must be one of ${PURITY_LEVELS.join(", ")}`, value);
}
