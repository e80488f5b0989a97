/** The mock model as the run lifecycle sees it, and the one server runs share unless they bring their own. */
import type { ScriptedRun, ScriptedRunError } from "../../mock-model/run/scripted-run.js";
import { startMockModel, type MockModel } from "../../mock-model/server/start.js";
import { warmUp } from "../../mock-model/server/warm.js";

/** A mock run as the lifecycle reads it, whichever API it speaks: its requests, errors, faults and last request. */
export type MockView = ScriptedRun<ScriptedRunError<string>>;

let sharedMock: Promise<MockModel> | undefined;
/** The shared server once it listens, until its warm-up has been started. */
let coldMock: MockModel | undefined;

/** The process-wide mock server runs share (each under its own API key); it never keeps the process alive. */
export function useSharedMock(): Promise<MockModel> {
  sharedMock ??= startMockModel({ unref: true }).then((mock) => {
    coldMock = mock;
    return mock;
  });
  return sharedMock;
}

/**
 * Once a CLI is started against `mock`: if it is the shared server and nothing has been answered
 * on it yet, warm it (see warmUp) while the CLI boots. A spec's own server is never touched: its
 * owner's callbacks would see the extra requests.
 */
export function warmIfCold(mock: MockModel): void {
  if (mock !== coldMock) return;
  coldMock = undefined;
  void warmUp(mock);
}
