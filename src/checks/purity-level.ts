/**
 * The purity levels, validated without loading the effect classes or the shell classifier:
 * `checkFromJSON` checks a `purity`/`skillPurity` level when it rebuilds the check, before any
 * of that code has loaded. (test/checks/lazy-safety.test.ts holds the list equal to
 * `PURITY_LEVELS` in src/effects/effects.ts.)
 */
import type { PurityLevel } from "../effects/effects.js";
import { InvalidCheckError } from "./validate.js";

/** The purity ladder, weakest-effect first, as `PURITY_LEVELS` in proctor/safety. */
export const PURITY_LEVEL_NAMES: readonly PurityLevel[] = ["pure", "bounded", "unrestricted"];

/** A purity level, validated at build time. */
export function requirePurity(kind: string, field: string, value: unknown): asserts value is PurityLevel {
  if (!PURITY_LEVEL_NAMES.includes(value as PurityLevel)) throw new InvalidCheckError(kind, field, `must be one of ${PURITY_LEVEL_NAMES.join(", ")}`, value);
}
