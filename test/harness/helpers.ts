/** Shared helpers for harness tests. */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

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

/**
 * A local server that records every request and CONNECT it receives: point a credential's
 * endpoint or a proxy variable at it, and anything that tried to leave lands in `trapped`.
 */
export async function startTrap(): Promise<{ url: string; trapped: string[]; close(): void }> {
  const trapped: string[] = [];
  const server = createServer((req, res) => {
    trapped.push(`${req.method} ${req.url}`);
    res.end();
  });
  server.on("connect", (req, socket) => {
    trapped.push(`CONNECT ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, trapped, close: () => server.close() };
}
