// proctor's own tests classify shell commands synchronously all over; load the parser once per
// file, as the vitest plugin does for users. (test/effects/lazy-parser.test.ts checks the
// behaviour without it, in a fresh process.)
import { beforeAll } from "vitest";
import { loadShellParser } from "../../src/effects/bash/parser.js";

beforeAll(() => loadShellParser());
