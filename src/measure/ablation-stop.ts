/**
 * Early stop for an ablation: the arms with and without the part run side by side, trial i of one
 * paired with trial i of the other (same seed, same index), and both stop as soon as the paired
 * anytime-valid interval for every check's delta clears 0 (the part matters) or lies inside
 * ±detect (it does not matter by that much; `DEFAULT_DETECT` unless given). The interval may be
 * read after every pair (`pairedVerdict`), so each verdict is wrong with probability ≤ α however
 * early the run stops (test/stats/paired-stopping.test.ts, bench/stopping.mjs).
 */
import { pairedSequence, pairedVerdict, type PairedCounts, type PairedVerdict } from "../stats/paired-sequence.js";
import type { StopInfo } from "./types.js";

/**
 * The equivalence margin of an ablation's early stop when `--detect` is not given: a check the
 * part does not move settles as "no effect beyond ±20 points". Without one, such a check (most
 * evals have one: `output(/^Summary:/m)`) keeps its interval around 0 and the arms run to their
 * cap. 0.2 settles a check whose pairs all agree in 24 pairs (95 %), one with half its pairs
 * split 1:1 in about 130; a narrower margin costs quadratically more (±10: 51 and ~570).
 */
export const DEFAULT_DETECT = 0.2;

const pts = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(Math.round(x * 100))}`;

/** The ablation's early stop as the report records it. */
export interface AblationEarlyStop {
  /** Error rate of each stop verdict. */
  readonly alpha: number;
  /** Pairs evaluated before the first look. */
  readonly minPairs: number;
  /** A delta shown inside ±detect also settles a check (`DEFAULT_DETECT` unless given). */
  readonly detect?: number;
  /** True when `detect` is the default margin, not one the run asked for. */
  readonly defaultDetect?: boolean;
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
  /** What the stop still waits for, for the progress line (undefined: nothing to say). */
  status?(): string | undefined;
}

/** Pairs the two arms' trials by index and decides when they have shown enough. */
export class AblationStopper {
  private readonly arms = { with: new Map<number, readonly boolean[] | null>(), without: new Map<number, readonly boolean[] | null>() };
  private readonly counts: { n: number; up: number; down: number }[];
  private pairs = 0;
  private decided: StopInfo | undefined;
  private decidedAt: number | undefined;
  private verdicts: PairedVerdict[];
  /** The progress note, computed on demand and kept until the next pair (the stop itself never needs it). */
  private waiting: { readonly pairs: number; readonly text: string } | undefined;

  constructor(
    private readonly labels: readonly string[],
    private readonly options: { readonly alpha: number; readonly minPairs: number; readonly detect?: number; readonly defaultDetect?: boolean; readonly cap: number },
  ) {
    this.counts = labels.map(() => ({ n: 0, up: 0, down: 0 }));
    this.verdicts = labels.map(() => undefined);
  }

  /** The hook one arm's measure calls. */
  arm(side: "with" | "without"): SequentialStop {
    return { record: (trial, passes) => this.record(side, trial, passes), stop: () => this.decided, status: () => this.status() };
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
    const margin = Math.round(Math.abs(this.options.detect ?? 0) * 100);
    const shown = this.labels.map((l, i) => `${l} ${this.verdicts[i] === "matters" ? "matters" : `no effect beyond ±${margin} pts`}`);
    const rule = this.options.detect === undefined ? "clears 0" : `clears 0 or lies within ±${Math.abs(this.options.detect)}${this.options.defaultDetect ? " (the default margin; --detect sets another)" : ""}`;
    this.decided = {
      reason: "early-stop",
      message: `stopped early after ${this.pairs} pairs: the anytime-valid interval of every check's delta ${rule} at ${Math.round((1 - this.options.alpha) * 100)}% (${shown.join("; ")})`,
    };
  }

  /** The progress line's note: the pairs so far and, once it looks, which checks keep it going and why. */
  status(): string | undefined {
    if (this.decided) return undefined;
    if (this.pairs < this.options.minPairs) return `ablation ${this.pairs} pairs, first look at ${this.options.minPairs}`;
    if (this.waiting?.pairs !== this.pairs) this.waiting = { pairs: this.pairs, text: this.openText() };
    return this.waiting.text;
  }

  /** `ablation 24 pairs, open: output(…) −12…+18 (needs clear of 0, or within ±10) — --detect 0.2 would settle it`. */
  private openText(): string {
    const confidence = 1 - this.options.alpha;
    const open = this.labels.flatMap((label, i) => (this.verdicts[i] === undefined ? [{ label, interval: pairedSequence(this.counts[i] as PairedCounts, confidence) }] : []));
    const detect = this.options.detect;
    const shown = open.slice(0, 3).map((o) => `${o.label.length > 40 ? `${o.label.slice(0, 39)}…` : o.label} ${pts(o.interval.low)}…${pts(o.interval.high)}`);
    const more = open.length > 3 ? ` +${open.length - 3} more` : "";
    const needs = detect === undefined ? "needs clear of 0" : `needs clear of 0, or within ±${Math.round(Math.abs(detect) * 100)}`;
    // The margin that would settle every open check now (rounded up to a tenth); valid to choose after looking, since the interval holds at every n.
    const widest = Math.max(...open.map((o) => Math.max(Math.abs(o.interval.low), Math.abs(o.interval.high))));
    const settle = Math.min(1, Math.ceil((widest + 1e-9) * 10) / 10);
    const hint = detect === undefined || settle > Math.abs(detect) ? ` — --detect ${settle} would settle ${open.length === 1 ? "it" : "them"}` : "";
    return `ablation ${this.pairs} pairs, open: ${shown.join(", ")}${more} (${needs})${hint}`;
  }

  /** The record for the report: whether it stopped, at how many pairs, each check's verdict. */
  info(): AblationEarlyStop {
    return {
      alpha: this.options.alpha,
      minPairs: this.options.minPairs,
      ...(this.options.detect !== undefined ? { detect: this.options.detect } : {}),
      ...(this.options.defaultDetect ? { defaultDetect: true } : {}),
      stopped: this.decided !== undefined,
      pairs: this.decidedAt ?? this.pairs,
      cap: this.options.cap,
      verdicts: this.labels.map((label, i) => ({ label, verdict: this.verdicts[i] ?? "open" })),
    };
  }
}
