/**
 * The one error catalog. Every code is one of the spec's (section 7); the API's error middleware
 * renders any AppError as the envelope, and anything else as `internal_error`.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  rate_limited: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    /** The request field at fault, for 400s. */
    public readonly field?: string,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * Bad input to ingest: names the file and the field at fault so an editor can fix it.
 * Raised before anything is written, so stored data is never touched by bad input.
 */
export class InputError extends Error {
  constructor(
    public readonly file: string,
    public readonly field: string,
    public readonly problem: string,
  ) {
    super(`${file}: ${field}: ${problem}`);
    this.name = "InputError";
  }
}
