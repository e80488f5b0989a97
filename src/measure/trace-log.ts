/** `keepTraces`: stream each trial's Trace to a JSONL file as it finishes, so memory stays flat. */
import { createWriteStream, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { InvalidInputError } from "../errors/proctor-error.js";

/** An open JSONL file of `{trial, trace}` / `{trial, error}` lines. */
export interface TraceLog {
  write(line: { trial: number; trace?: unknown; error?: string }): Promise<void>;
  close(): Promise<void>;
}

/** Open (truncate) `path` now, so a bad path fails before any trial runs. */
export function openTraceLog(path: string): TraceLog {
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(path, "w");
  } catch (error) {
    throw new InvalidInputError("INVALID_INPUT", `keepTraces: cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  const stream = createWriteStream("", { fd });
  let failure: Error | undefined;
  stream.on("error", (error) => (failure ??= error));
  return {
    async write(line) {
      if (failure) return;
      // Respect backpressure: large traces and fast trials must not pile up in memory.
      if (!stream.write(`${JSON.stringify(line)}\n`)) {
        await new Promise<void>((resolve) => {
          stream.once("drain", resolve);
          stream.once("error", () => resolve());
        });
      }
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        stream.end(() => (failure ? reject(new InvalidInputError("INVALID_INPUT", `keepTraces: writing ${path} failed: ${failure.message}`)) : resolve()));
      });
    },
  };
}
