/** The mock model as the run lifecycle sees it, and the one server runs share unless they bring their own. */
import type { ModelRequest } from "../../src/trace/types.js";
import { startMockModel, type MockModel } from "../../mock-model/server/start.js";

/** What the lifecycle reads from a mock run (a Messages or a Responses run): its errors, requests and last request. */
export interface MockView {
  readonly requests: readonly ModelRequest[];
  readonly errors: readonly { readonly kind: string; readonly message: string }[];
  readonly faultsServed: number;
  describeLastRequest(): string | undefined;
  remove(): void;
}

let sharedMock: Promise<MockModel> | undefined;

/** The process-wide mock server runs share (each under its own API key); it never keeps the process alive. */
export function useSharedMock(): Promise<MockModel> {
  sharedMock ??= startMockModel({ unref: true });
  return sharedMock;
}
