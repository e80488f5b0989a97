/** Shared helpers for harness tests. */
import { readFileSync } from "node:fs";

/** True once `pid` is gone or a zombie waiting to be reaped (a killed process nobody waited for). */
export async function processGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    try {
      if (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z")) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
