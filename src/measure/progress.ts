/**
 * The progress line: live (redrawn in place) on a terminal; on a pipe or under CI, a plain line
 * now and then and one at the end, so logs stay short.
 */

/** What the progress line shows. */
export interface ProgressState {
  readonly name?: string | undefined;
  readonly done: number;
  readonly total: number;
  readonly errored: number;
  readonly checks: readonly { readonly label: string; readonly passes: number; readonly n: number }[];
  readonly costUsd: number;
  readonly elapsedMs: number;
  /** What a shared stop is waiting for (an ablation's open checks), shown after the rates. */
  readonly note?: string | undefined;
}

/** Where and how progress is written. */
export interface ProgressOptions {
  /** @default process.stderr */
  readonly stream?: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
  /** `live` redraws one line; `lines` appends a line every `intervalMs`. @default live on a TTY without CI, else lines */
  readonly mode?: "live" | "lines";
  /** Minimum time between lines in `lines` mode. @default 10000 */
  readonly intervalMs?: number;
}

/** Receives progress as trials finish. */
export interface ProgressSink {
  update(state: ProgressState): void;
  finish(state: ProgressState, note?: string): void;
}

const SILENT: ProgressSink = { update() {}, finish() {} };

/** `eval 12/20 · 1 errored · tool(Bash) 45% · $0.0123 · 12.3 s` — the checks cut to fit `width`. */
export function renderProgress(state: ProgressState, width = Infinity): string {
  const head = `${state.name ? `${state.name} ` : ""}${state.done}/${state.total} trials${state.errored ? ` · ${state.errored} errored` : ""}`;
  const tail = ` · $${state.costUsd.toFixed(4)} · ${(state.elapsedMs / 1000).toFixed(1)} s`;
  const rates = state.checks.map((c) => ` · ${c.label.length > 40 ? `${c.label.slice(0, 39)}…` : c.label} ${c.n === 0 ? "–" : `${Math.round((c.passes / c.n) * 100)}%`}`);
  // Show as many checks as fit, and say how many did not.
  let shown = rates.length;
  const length = (k: number) => head.length + tail.length + rates.slice(0, k).reduce((s, r) => s + r.length, 0) + (k < rates.length ? ` · +${rates.length - k} more`.length : 0);
  while (shown > 0 && length(shown) > width) shown--;
  let line = head + rates.slice(0, shown).join("") + (shown < rates.length ? ` · +${rates.length - shown} more` : "");
  line += tail;
  // The note says why the run goes on; it comes last and is what gets cut on a narrow terminal.
  if (state.note) line += ` · ${state.note}`;
  return line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line;
}

/** Build the sink for `measure`'s `progress` option: false silences it. */
export function createProgress(option: boolean | "auto" | ProgressOptions | undefined, env: Readonly<Record<string, string | undefined>> = process.env): ProgressSink {
  if (option === false) return SILENT;
  const opts: ProgressOptions = typeof option === "object" ? option : {};
  const stream = opts.stream ?? process.stderr;
  const mode = opts.mode ?? (stream.isTTY && !env.CI ? "live" : "lines");
  const interval = opts.intervalMs ?? 10_000;
  let last = -Infinity;
  if (mode === "live") {
    const draw = (state: ProgressState) => `\r\x1b[2K${renderProgress(state, (stream.columns ?? 100) - 1)}`;
    return {
      update(state) {
        if (state.elapsedMs - last < 100) return; // ~10 redraws a second is plenty
        last = state.elapsedMs;
        stream.write(draw(state));
      },
      finish(state, note) {
        stream.write(`${draw(state)}\n${note ? `${note}\n` : ""}`);
      },
    };
  }
  return {
    update(state) {
      if (last === -Infinity) last = 0;
      if (state.elapsedMs - last < interval) return;
      last = state.elapsedMs;
      stream.write(`${renderProgress(state)}\n`);
    },
    finish(state, note) {
      stream.write(`${renderProgress(state)}${note ? ` · ${note}` : ""}\n`);
    },
  };
}
