/**
 * Loads the safety checks (`purity`, `lethalTrifecta`, the skill contracts) on first need. They
 * reach the shell classifier, the largest part of proctor's code, which most importers of
 * `proctor` never run; `checkFromJSON` hands out checks of these kinds that build the real check
 * once this has loaded (see from-json.ts).
 */
import { processSlot } from "../util/process-slot.js";
import type * as factories from "./safety-factories.js";

/** The safety checks' factories, as the loaded module exports them. */
export type SafetyFactories = typeof factories;

/**
 * The loaded module lives on `globalThis`, as the shell parser does: a CommonJS project loading a
 * `.ts` eval through tsx gets a second copy of proctor's modules, and that copy's checks must see
 * what the other copy's `measure` loaded.
 */
const slot = processSlot<{ factories?: SafetyFactories; loading?: Promise<void> | undefined }>("proctor.safetyChecks");

/** Load the safety checks once per process; later calls return the same promise. */
export function loadSafetyChecks(): Promise<void> {
  slot.loading ??= import("./safety-factories.js").then((m) => {
    slot.factories = m;
  });
  slot.loading.catch(() => {
    slot.loading = undefined; // a failed load may be retried
  });
  return slot.loading;
}

/** The safety checks' factories once `loadSafetyChecks()` has finished, else `undefined`. */
export function loadedSafetyChecks(): SafetyFactories | undefined {
  return slot.factories;
}
