/**
 * Sharding: the distributed engine is the CI matrix. Shard i/n runs a contiguous, deterministic
 * slice of the trial indices; every trial's randomness depends only on (seed, index), so the
 * shards together make exactly the draws of one unsharded run.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import type { ShardSpec } from "./types.js";
import { requireObject } from "../errors/arguments.js";

/** Half-open [start, end) range of trial indices. */
export interface TrialRange {
  readonly start: number;
  readonly end: number;
}

/** `"2/4"` → { index: 2, count: 4 } (1-based, like vitest's --shard). */
export function parseShard(value: string | ShardSpec): ShardSpec {
  if (typeof value === "object" && value !== null) return checkShard(value.index, value.count, JSON.stringify(value));
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(String(value));
  if (!match) throw new InvalidInputError("INVALID_INPUT", `shard ${JSON.stringify(value)} is not i/n: write it like "2/4" (the 2nd of 4 shards, counting from 1)`);
  return checkShard(Number(match[1]), Number(match[2]), JSON.stringify(value));
}

function checkShard(index: number, count: number, text: string): ShardSpec {
  if (!Number.isInteger(count) || count < 1) throw new InvalidInputError("INVALID_INPUT", `shard ${text}: the shard count must be a positive integer`);
  if (!Number.isInteger(index) || index < 1 || index > count) throw new InvalidInputError("INVALID_INPUT", `shard ${text}: the index must be within 1..${count} (shards count from 1)`);
  return { index, count };
}

/** `"2/4"`. */
export function formatShard(shard: ShardSpec): string {
  requireObject("formatShard", "shard", shard, "a shard such as { index: 2, count: 4 }");
  return `${shard.index}/${shard.count}`;
}

/**
 * The trial indices shard i/n runs out of `total`: [⌊(i−1)·total/n⌋, ⌊i·total/n⌋). Slices differ in
 * size by at most one, cover every index exactly once, and depend on nothing but (total, i, n).
 */
export function shardTrials(total: number, shard: string | ShardSpec): TrialRange {
  if (!Number.isInteger(total) || total < 0) throw new InvalidInputError("INVALID_INPUT", `shardTrials: total must be a non-negative integer; got ${total}`);
  const { index, count } = parseShard(shard);
  return { start: Math.floor(((index - 1) * total) / count), end: Math.floor((index * total) / count) };
}
