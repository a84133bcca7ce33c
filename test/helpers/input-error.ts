import { expect } from "vitest";
import { InputError } from "../../services/core/errors.ts";

/** Runs `work`, expects it to throw an InputError, and returns it for the caller to inspect. */
export function inputError(work: () => unknown): InputError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error("expected an InputError, but nothing was thrown");
}
