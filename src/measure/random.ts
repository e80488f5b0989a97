/**
 * Seeded randomness for reproducible stochastic scripts and simulations. A trial's stream depends
 * only on (seed, trial index) — not on concurrency, completion order or which shard ran it — so a
 * sharded run and an unsharded one with the same seed make the same draws, trial for trial.
 */
import { at } from "../util/narrow.js";
import { InvalidInputError } from "../errors/proctor-error.js";

/** A deterministic source of uniform draws. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max). */
  int(min: number, max: number): number;
  /** true with probability p. */
  chance(p: number): boolean;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
}

/** cyrb128: four 32-bit words from a string, so every seed (number or text) spreads over the state. */
function hashSeed(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** A seeded generator (sfc32: fast, passes PractRand to 2^40+ bytes). Same seed, same sequence. */
export function seededRandom(seed: number | string): Random {
  if (typeof seed !== "string" && !Number.isFinite(seed)) throw new InvalidInputError("INVALID_INPUT", `seededRandom: seed must be a finite number or a string; got ${String(seed)}`, { input: "seed", hint: "pass the run's seed, e.g. 42 or \"nightly\"" });
  let [a, b, c, d] = hashSeed(String(seed));
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const out = (t + d) | 0;
    c = (c + out) | 0;
    return (out >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next(); // discard the first draws, which still echo the hash
  return {
    next,
    int(min, max) {
      if (!Number.isInteger(min) || !Number.isInteger(max) || max <= min) throw new InvalidInputError("INVALID_INPUT", `int(min, max) needs integers with min < max; got ${min}, ${max}`, { input: "min, max" });
      return min + Math.floor(next() * (max - min));
    },
    chance(p) {
      if (!(p >= 0 && p <= 1)) throw new InvalidInputError("INVALID_INPUT", `chance(p) needs p within 0..1; got ${p}`, { input: "p" });
      return next() < p;
    },
    pick(items) {
      if (items.length === 0) throw new InvalidInputError("INVALID_INPUT", "pick(items) needs at least one item", { input: "items" });
      return at(items, Math.floor(next() * items.length));
    },
  };
}

/** The stream for one trial: a function of (seed, trial) only, so sharding and concurrency don't change it. */
export function trialRandom(seed: number | string, trial: number): Random {
  if (typeof seed !== "string" && !Number.isFinite(seed)) throw new InvalidInputError("INVALID_INPUT", `trialRandom: seed must be a finite number or a string; got ${String(seed)}`, { input: "seed" });
  if (!Number.isInteger(trial) || trial < 0) throw new InvalidInputError("INVALID_INPUT", `trialRandom: trial must be a non-negative integer; got ${String(trial)}`, { input: "trial" });
  return seededRandom(`${String(seed)}#${trial}`);
}
