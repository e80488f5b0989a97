/** The seeded RNG: same seed, same draws; trial streams independent of order. */
import { describe, expect, it } from "vitest";
import { seededRandom, trialRandom } from "../../src/index.js";

const draws = (seed: number | string, n = 5) => {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => r.next());
};

describe("seededRandom", () => {
  it("repeats a sequence for the same seed and differs for another", () => {
    expect(draws(42)).toEqual(draws(42));
    expect(draws("42")).toEqual(draws(42)); // a number seed is its decimal text
    expect(draws(42)).not.toEqual(draws(43));
  });
  it("is roughly uniform (seeded, so this is deterministic)", () => {
    const r = seededRandom("uniform");
    const bins = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) bins[Math.floor(r.next() * 10)]++;
    for (const b of bins) expect(Math.abs(b - 10_000)).toBeLessThan(500); // ±5 SD
  });
  it("has int, chance and pick with checked arguments", () => {
    const r = seededRandom(1);
    for (let i = 0; i < 1000; i++) {
      const v = r.int(3, 7);
      expect(v >= 3 && v < 7 && Number.isInteger(v)).toBe(true);
    }
    expect(r.chance(0)).toBe(false);
    expect(r.chance(1)).toBe(true);
    expect(["a", "b"]).toContain(r.pick(["a", "b"]));
    expect(() => r.chance(1.5)).toThrow("chance(p) needs p within 0..1; got 1.5");
    expect(() => r.pick([])).toThrow("pick(items) needs at least one item");
    expect(() => r.int(5, 5)).toThrow("int(min, max) needs integers with min < max; got 5, 5");
    expect(() => seededRandom(Number.NaN)).toThrow("seed must be a finite number or a string");
  });
});

describe("trialRandom", () => {
  it("depends only on (seed, trial), whatever order trials are drawn in", () => {
    const forward = [0, 1, 2, 3].map((t) => trialRandom("s", t).next());
    const backward = [3, 2, 1, 0].map((t) => trialRandom("s", t).next()).reverse();
    expect(forward).toEqual(backward);
    expect(new Set(forward).size).toBe(4);
  });
});
