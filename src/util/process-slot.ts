/**
 * One object per process under a registered symbol on `globalThis`, not in module state: a
 * CommonJS project that loads a `.ts` eval through tsx gets a second copy of proctor's modules,
 * and what one copy loads (the shell parser, the safety checks) must be seen by the other.
 */
export function processSlot<T extends object>(name: string): T {
  const slots = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(name);
  slots[key] ??= {};
  return slots[key] as T;
}
