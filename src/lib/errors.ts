// Errors the domain throws; the HTTP error plugin renders them as Mastodon error bodies.

export type ErrorDetails = Record<string, { error: string; description: string }[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return { error: this.message, ...this.extra };
  }
}

export class BadRequest extends ApiError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends ApiError {
  constructor(message = "The access token is invalid") {
    super(401, message);
  }
}

/** 403 with a specific message (scope, pending approval, disabled login…). */
export class Forbidden extends ApiError {
  constructor(message = "This action is not allowed") {
    super(403, message);
  }
}

/** The caller may not do this: Mastodon's NotPermittedError, always the same message. */
export class NotPermitted extends Forbidden {
  constructor() {
    super("This action is not allowed");
  }
}

export class NotFound extends ApiError {
  constructor(message = "Record not found") {
    super(404, message);
  }
}

export class Unprocessable extends ApiError {
  constructor(message: string, details?: ErrorDetails) {
    super(422, message, details ? { details } : {});
  }
}

/** RFC 6749 error from the OAuth endpoints: `{error, error_description}`. */
export class OAuthError extends ApiError {
  constructor(status: number, code: string, description: string) {
    super(status, code, { error_description: description });
  }
}

/** 413: the body is larger than the route accepts (refused from Content-Length or while it streams in). */
export class PayloadTooLarge extends ApiError {
  constructor(limit: number) {
    super(413, `Request body too large (the limit is ${limit} bytes)`);
  }
}

/** 408: the body stopped arriving before the read deadline. */
export class RequestTimeout extends ApiError {
  constructor() {
    super(408, "The request body took too long to arrive");
  }
}
