// What every facade shares for rejecting bad input before it reaches a kernel: the error type and
// the number checks. A rejected call throws before it changes anything.

import { MAX_COORD } from "../layout/grid.js";

export { MAX_COORD };

/** A rejected call: `code` names the problem, the message says how to fix it. The store is unchanged. */
export class HitcoreError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(`hitcore: ${message}`);
    this.name = "HitcoreError";
    this.code = code;
  }
}

/** A value as an error message shows it: numbers plainly, anything else with its type. */
export function describe(v: unknown): string {
  return typeof v === "number" ? String(v) : `${typeof v} ${String(v)}`;
}

/** Throws INVALID_NUMBER unless v is a finite number of magnitude at most MAX_COORD. */
export function checkCoord(method: string, name: string, v: number): void {
  if (typeof v !== "number" || !Number.isFinite(v) || Math.abs(v) > MAX_COORD) {
    throw new HitcoreError("INVALID_NUMBER", `${method}: ${name} must be a finite number of magnitude at most ${MAX_COORD}, got ${describe(v)}. Check the value for NaN or Infinity before passing it.`);
  }
}

/** checkCoord, then NEGATIVE_SIZE for v < 0. */
export function checkSize(method: string, name: string, v: number): void {
  checkCoord(method, name, v);
  if (v < 0) {
    throw new HitcoreError("NEGATIVE_SIZE", `${method}: ${name} must be >= 0, got ${v}. Pass the absolute size; for a rect or box, move x/y to the top-left corner.`);
  }
}

