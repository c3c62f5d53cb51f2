/**
 * The exit-code table scripts rely on. Keep it short and stable (see README "Exit codes").
 */
export const ExitCode = {
  ok: 0,
  /** A response ≥ 400, or a GraphQL response with `errors`. */
  httpFailure: 1,
  /** Usage, request-file or profile error. */
  usage: 2,
  /** A variable could not be resolved. */
  variable: 3,
  /** Connection refused, DNS failure, time-out, reset. */
  network: 4,
  /** Certificates, keys, trust, hostname. */
  tls: 5,
  /** An authentication flow (OAuth login, refresh, token endpoint) failed. */
  auth: 6,
  /** A bug: in reqflow or in a plugin. */
  internal: 70,
  /** The output could not be written (disk full, I/O error): sysexits' EX_IOERR. */
  output: 74,
  /** Interrupted with Ctrl-C (128 + SIGINT), as shells report it. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
