/**
 * `ordered` and turn-aware `strict` trajectories against brute-force oracles: every injective
 * placement of the reference on the calls (ordered), every order of calls within their turns
 * (strict). Small sizes, so enumeration is exact.
 */
import fc from "fast-check";
import { describe, expect as vexpect, it } from "vitest";
import { trajectory, type ToolCall, type TrajectoryStep } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

type Step = { name: string; args?: { x: number } };

const callArb = fc.record({ name: fc.constantFrom("A", "B", "C"), x: fc.constantFrom(0, 1), newTurn: fc.boolean(), noTurn: fc.boolean() });
const stepArb: fc.Arbitrary<Step> = fc.record({ name: fc.constantFrom("A", "B", "C"), withArgs: fc.boolean(), x: fc.constantFrom(0, 1) }).map((s) => (s.withArgs ? { name: s.name, args: { x: s.x } } : { name: s.name }));

/** Calls with turns: a call starts a new turn, shares the previous one, or has none. */
function buildCalls(specs: { name: string; x: number; newTurn: boolean; noTurn: boolean }[]): Partial<ToolCall>[] {
  let turn = 0;
  return specs.map((s, i) => {
    if (s.noTurn) return { name: s.name, input: { x: s.x } };
    if (s.newTurn || i === 0 || specs[i - 1].noTurn) turn++;
    return { name: s.name, input: { x: s.x }, turn };
  });
}

/** Block number of each call, computed independently: a call joins the previous block only when both carry the same turn. */
function blockNumbers(calls: Partial<ToolCall>[]): number[] {
  const out: number[] = [];
  calls.forEach((c, i) => {
    const prev = calls[i - 1];
    const same = i > 0 && c.turn !== undefined && prev.turn !== undefined && prev.turn === c.turn;
    out.push(i === 0 ? 0 : same ? out[i - 1] : out[i - 1] + 1);
  });
  return out;
}

const matches = (c: Partial<ToolCall>, s: Step) => c.name === s.name && (s.args === undefined || (c.input as { x: number }).x === s.args.x);

function orderedOracle(calls: Partial<ToolCall>[], steps: Step[]): boolean {
  const block = blockNumbers(calls);
  const used = new Array(calls.length).fill(false);
  const place = (k: number, minBlock: number): boolean => {
    if (k === steps.length) return true;
    for (let i = 0; i < calls.length; i++) {
      if (used[i] || block[i] < minBlock || !matches(calls[i], steps[k])) continue;
      used[i] = true;
      if (place(k + 1, block[i])) return true;
      used[i] = false;
    }
    return false;
  };
  return place(0, 0);
}

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

function strictOracle(calls: Partial<ToolCall>[], steps: Step[]): boolean {
  if (calls.length !== steps.length) return false;
  const block = blockNumbers(calls);
  const groups: Partial<ToolCall>[][] = [];
  for (const [i, c] of calls.entries()) {
    const group = groups[block[i]] ?? [];
    group.push(c);
    groups[block[i]] = group;
  }
  let from = 0;
  for (const g of groups) {
    const slice = steps.slice(from, from + g.length);
    if (!permutations(g).some((p) => p.every((c, j) => matches(c, slice[j])))) return false;
    from += g.length;
  }
  return true;
}

describe("trajectory against brute-force oracles", () => {
  it("ordered: the reference is placed in order, parallel calls in any order, others between", () => {
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: 6 }), fc.array(stepArb, { minLength: 1, maxLength: 4 }), (specs, steps) => {
        const calls = buildCalls(specs);
        const verdict = trajectory(steps as TrajectoryStep[], { mode: "ordered", args: "superset" }).eval(makeTrace({ calls: calls as never }));
        vexpect(verdict.pass, verdict.message).toBe(orderedOracle(calls, steps));
      }),
      { numRuns: 3000, seed: 1207 },
    );
  });

  it("strict: step for step, except that calls of one turn match in any order", () => {
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: 6 }), fc.array(stepArb, { maxLength: 6 }), (specs, steps) => {
        const calls = buildCalls(specs);
        const verdict = trajectory(steps as TrajectoryStep[], { mode: "strict", args: "superset" }).eval(makeTrace({ calls: calls as never }));
        vexpect(verdict.pass, verdict.message).toBe(strictOracle(calls, steps));
      }),
      { numRuns: 3000, seed: 1208 },
    );
  });

  it("kept seeds: greedy placement would fail these", () => {
    // The first step could take either parallel A; only one choice leaves the A{x:1} for step 2.
    const calls = [
      { name: "A", input: { x: 1 }, turn: 1 },
      { name: "A", input: { x: 0 }, turn: 1 },
    ];
    const steps: Step[] = [{ name: "A" }, { name: "A", args: { x: 1 } }];
    vexpect(orderedOracle(calls, steps)).toBe(true);
    vexpect(trajectory(steps, { mode: "ordered", args: "superset" }).eval(makeTrace({ calls: calls as never })).pass).toBe(true);
    vexpect(trajectory(steps, { mode: "strict", args: "superset" }).eval(makeTrace({ calls: calls as never })).pass).toBe(true);
    // Without turns the same calls are ordered: A{x:1} comes first, so strict fails.
    const serial = calls.map(({ turn: _t, ...c }) => c);
    vexpect(trajectory(steps, { mode: "strict", args: "superset" }).eval(makeTrace({ calls: serial as never })).pass).toBe(false);
  });
});
