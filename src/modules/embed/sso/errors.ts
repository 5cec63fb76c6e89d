// Errors of the single-sign-on building blocks. Messages are safe to show to the tenant owner (setup page) or
// the signing-in user: they never carry secrets, tokens or raw IdP documents. The underlying library error,
// when there is one, is kept in `cause` for server-side logs only.
import { AppError, InvalidInput } from '../../../platform/errors.ts';

/** A tenant's SSO configuration (issuer, client, IdP metadata) is unusable; `fields` names the culprit. */
export class SsoConfigError extends InvalidInput {
  constructor(field: string, problem: string, cause?: unknown) {
    super(`${field}: ${problem}`, { [field]: problem });
    if (cause !== undefined) this.cause = cause;
  }
}

export type SsoSignInFailure =
  | 'idp_error'
  | 'state_mismatch'
  | 'nonce_mismatch'
  | 'code_rejected'
  | 'client_rejected'
  | 'token_invalid'
  | 'invalid_response'
  | 'signature_invalid'
  | 'expired'
  | 'audience_mismatch'
  | 'destination_mismatch'
  | 'issuer_mismatch'
  | 'request_mismatch'
  | 'upstream'
  | 'missing_email'
  | 'not_configured';

/** A sign-in attempt was refused: the callback/response did not pass validation, or the IdP refused it. */
export class SsoSignInError extends AppError {
  constructor(
    readonly reason: SsoSignInFailure,
    message: string,
    cause?: unknown,
  ) {
    super('UNAUTHENTICATED', message, { reason });
    if (cause !== undefined) this.cause = cause;
  }
}
