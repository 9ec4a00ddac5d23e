import type { ErrorCode, ErrorResponse } from '../contract/errors.ts';

/** An error a service throws on purpose; the error-handler plugin renders it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The fields at fault, as a schema's validation names them (`body.url`), so a form can show each at its field. */
    readonly issues?: ErrorResponse['issues'],
  ) {
    super(message);
  }
}

/** A reason the server cannot start, said in a sentence: main prints it and exits 1, with no stack. */
export class StartupError extends Error {}

export const invalid = (message: string, issues?: ErrorResponse['issues']) => new AppError(400, 'invalid', message, {}, issues);
export const unauthorized = (message = 'Unauthorized') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Forbidden') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
