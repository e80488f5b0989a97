/** The rate, its standard error and the Wilson interval: known values, edges, bad input. */
import { describe, expect, it } from "vitest";
import { normalQuantile } from "../../src/stats/normal.js";
import { standardError } from "../../src/stats/proportion.js";
import { wilsonInterval } from "../../src/index.js";
import { zFor } from "../../src/stats/normal.js";

describe("normalQuantile", () => {
  it.each([
    [0.975, 1.959963984540054],
    [0.995, 2.5758293035489],
    [0.5, 0],
    [0.01, -2.3263478740408408],
    [1e-6, -4.753424308822899],
  ])("Φ⁻¹(%f) = %f", (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 7);
  });
  it("maps confidence levels to two-sided critical values and refuses nonsense", () => {
    expect(zFor(0.95)).toBeCloseTo(1.959964, 6);
    expect(() => zFor(95)).toThrow(/confidence must be within \(0, 1\), e.g. 0.95; got 95/);
  });
});

describe("wilsonInterval", () => {
  // Reference values: scipy.stats.binomtest(x, n).proportion_ci(method="wilson").
  it.each([
    [0, 10, 0, 0.2775327],
    [5, 10, 0.2365931, 0.7634069],
    [10, 10, 0.7224673, 1],
    [1, 20, 0.0088814, 0.2361312],
    [45, 50, 0.7863977, 0.9565242],
  ])("%i/%i → [%f, %f]", (passes, n, low, high) => {
    const ci = wilsonInterval(passes, n);
    expect(ci.low).toBeCloseTo(low, 6);
    expect(ci.high).toBeCloseTo(high, 6);
  });
  it("is exactly 0 / 1 at the edges and [0, 1] with no trials (no made-up certainty)", () => {
    expect(wilsonInterval(0, 3).low).toBe(0);
    expect(wilsonInterval(3, 3).high).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
  it("widens with confidence and narrows with n", () => {
    const w = (ci: { low: number; high: number }) => ci.high - ci.low;
    expect(w(wilsonInterval(5, 10, 0.99))).toBeGreaterThan(w(wilsonInterval(5, 10, 0.95)));
    expect(w(wilsonInterval(50, 100))).toBeLessThan(w(wilsonInterval(5, 10)));
  });
  it("refuses counts that are not counts, naming them", () => {
    expect(() => wilsonInterval(11, 10)).toThrow("wilsonInterval: passes must be an integer within 0..n (n = 10); got 11");
    expect(() => wilsonInterval(1, 2.5)).toThrow("wilsonInterval: n must be a non-negative integer; got 2.5");
  });
});

describe("standardError", () => {
  it("is √(p(1−p)/n), 0 at the edges, null without trials", () => {
    expect(standardError(5, 20)).toBeCloseTo(Math.sqrt(0.25 * 0.75 / 20), 12);
    expect(standardError(0, 20)).toBe(0);
    expect(standardError(0, 0)).toBeNull();
  });
});
