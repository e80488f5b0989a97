/** The mock model as the run lifecycle sees it, and the one server runs share unless they bring their own. */
import type { ScriptedRun, ScriptedRunError } from "../../mock-model/run/scripted-run.js";
import { startMockModel, type MockModel } from "../../mock-model/server/start.js";

/** A mock run as the lifecycle reads it, whichever API it speaks: its requests, errors, faults and last request. */
export type MockView = ScriptedRun<ScriptedRunError<string>>;

let sharedMock: Promise<MockModel> | undefined;

/** The process-wide mock server runs share (each under its own API key); it never keeps the process alive. */
export function useSharedMock(): Promise<MockModel> {
  sharedMock ??= startMockModel({ unref: true });
  return sharedMock;
}
