/**
 * Early stop for an ablation: the arms with and without the part run side by side, trial i of one
 * paired with trial i of the other (same seed, same index), and both stop as soon as the paired
 * anytime-valid interval for every check's delta clears 0 (the part matters) or, with `detect`,
 * lies inside ±detect (it does not matter by that much). The interval may be read after every pair
 * (`pairedVerdict`), so each verdict is wrong with probability ≤ α however early the run stops
 * (test/stats/paired-stopping.test.ts, bench/stopping.mjs).
 */
import { pairedVerdict, type PairedCounts, type PairedVerdict } from "../stats/paired-sequence.js";
import type { StopInfo } from "./types.js";

/** The ablation's early stop as the report records it. */
export interface AblationEarlyStop {
  /** Error rate of each stop verdict. */
  readonly alpha: number;
  /** Pairs evaluated before the first look. */
  readonly minPairs: number;
  /** With `detect`, a delta shown inside ±detect also settles a check. */
  readonly detect?: number;
  /** Whether the rule stopped the arms before their trial count. */
  readonly stopped: boolean;
  /** Pairs (a trial with and the same trial without, both evaluated) when it stopped, or at the end. */
  readonly pairs: number;
  /** The trials each arm was allowed. */
  readonly cap: number;
  /** Each check's verdict at that point: `open` while its interval still straddles 0 (and ±detect). */
  readonly verdicts: readonly { readonly label: string; readonly verdict: "matters" | "negligible" | "open" }[];
}

/** What measure asks of a sequential stop shared by several arms (see MeasureOptions.sequential). */
export interface SequentialStop {
  /** A trial of this arm finished: each check's pass, or null when the trial errored. */
  record(trial: number, passes: readonly boolean[] | null): void;
  /** Why to start no more trials, once decided. */
  stop(): StopInfo | undefined;
}

/** Pairs the two arms' trials by index and decides when they have shown enough. */
export class AblationStopper {
  private readonly arms = { with: new Map<number, readonly boolean[] | null>(), without: new Map<number, readonly boolean[] | null>() };
  private readonly counts: { n: number; up: number; down: number }[];
  private pairs = 0;
  private decided: StopInfo | undefined;
  private decidedAt: number | undefined;
  private verdicts: PairedVerdict[];

  constructor(
    private readonly labels: readonly string[],
    private readonly options: { readonly alpha: number; readonly minPairs: number; readonly detect?: number; readonly cap: number },
  ) {
    this.counts = labels.map(() => ({ n: 0, up: 0, down: 0 }));
    this.verdicts = labels.map(() => undefined);
  }

  /** The hook one arm's measure calls. */
  arm(side: "with" | "without"): SequentialStop {
    return { record: (trial, passes) => this.record(side, trial, passes), stop: () => this.decided };
  }

  private record(side: "with" | "without", trial: number, passes: readonly boolean[] | null): void {
    this.arms[side].set(trial, passes);
    const other = this.arms[side === "with" ? "without" : "with"];
    if (!other.has(trial)) return;
    const theirs = other.get(trial) ?? null;
    this.arms.with.delete(trial);
    this.arms.without.delete(trial);
    // A pair with an errored side shows nothing about the part: it is left out, never counted a pass.
    if (passes === null || theirs === null) return;
    const w = side === "with" ? passes : theirs;
    const wo = side === "with" ? theirs : passes;
    this.pairs++;
    this.counts.forEach((c, i) => {
      c.n++;
      if (w[i] && !wo[i]) c.up++;
      else if (!w[i] && wo[i]) c.down++;
    });
    this.look();
  }

  private look(): void {
    if (this.decided || this.pairs < this.options.minPairs) return;
    this.verdicts = this.counts.map((c: PairedCounts) => pairedVerdict(c, this.options.alpha, this.options.detect));
    if (this.verdicts.length === 0 || this.verdicts.some((v) => v === undefined)) return;
    this.decidedAt = this.pairs;
    const shown = this.labels.map((l, i) => `${l} ${this.verdicts[i] === "matters" ? "matters" : `within ±${Math.abs(this.options.detect ?? 0)}`}`);
    this.decided = {
      reason: "early-stop",
      message: `stopped early after ${this.pairs} pairs: the anytime-valid interval of every check's delta ${this.options.detect === undefined ? "clears 0" : `clears 0 or lies within ±${Math.abs(this.options.detect)}`} at ${Math.round((1 - this.options.alpha) * 100)}% (${shown.join("; ")})`,
    };
  }

  /** The record for the report: whether it stopped, at how many pairs, each check's verdict. */
  info(): AblationEarlyStop {
    return {
      alpha: this.options.alpha,
      minPairs: this.options.minPairs,
      ...(this.options.detect !== undefined ? { detect: this.options.detect } : {}),
      stopped: this.decided !== undefined,
      pairs: this.decidedAt ?? this.pairs,
      cap: this.options.cap,
      verdicts: this.labels.map((label, i) => ({ label, verdict: this.verdicts[i] ?? "open" })),
    };
  }
}
