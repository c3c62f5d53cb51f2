import { NetworkError, ReqflowError, TlsError } from '../errors/index.js';

/** What the user's request was, for messages: `GET https://host/path`. */
export interface Target {
  method: string;
  url: URL;
}

const TLS_CODES: Record<string, { what: string; hint: string }> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: { what: 'server certificate is self-signed and not trusted', hint: 'trust it with tls.caFile (or, for testing only, insecureSkipVerify)' },
  SELF_SIGNED_CERT_IN_CHAIN: { what: 'server certificate chain ends in an untrusted self-signed CA', hint: 'add that CA with tls.caFile' },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { what: 'server certificate is not trusted (unknown issuer)', hint: 'add the issuing CA with tls.caFile' },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { what: 'server certificate is not trusted (unknown issuer)', hint: 'add the issuing CA with tls.caFile' },
  UNABLE_TO_GET_ISSUER_CERT: { what: 'server certificate is not trusted (unknown issuer)', hint: 'add the issuing CA with tls.caFile' },
  CERT_HAS_EXPIRED: { what: 'server certificate has expired', hint: 'renew the server certificate (or check the system clock)' },
  CERT_NOT_YET_VALID: { what: 'server certificate is not valid yet', hint: 'check the system clock' },
  ERR_TLS_CERT_ALTNAME_INVALID: { what: 'server certificate does not match the host name', hint: 'use the host name the certificate was issued for' },
  CERT_SIGNATURE_FAILURE: { what: 'server certificate signature is invalid', hint: 'check the server certificate' },
};

function hostOf(target: Target): string {
  return target.url.host;
}

/**
 * Turns a Node socket/TLS error into one clear line with the right exit code:
 * network problems are exit 4, TLS problems exit 5.
 */
export function toRequestError(error: unknown, target: Target, timeoutMs: number): ReqflowError {
  if (error instanceof ReqflowError) return error;
  const err = error as NodeJS.ErrnoException & { reason?: string };
  const code = err.code ?? '';
  const host = hostOf(target);
  const tls = TLS_CODES[code];
  if (tls) return new TlsError(`TLS error with ${host}: ${tls.what}`, { hint: tls.hint, cause: error });
  const message = String(err.message ?? err);
  if (/certificate required|alert number 116|alert bad certificate|alert number 42|handshake failure/i.test(message) || code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' || code === 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE' || code === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE') {
    return new TlsError(`TLS error with ${host}: the server rejected or required a client certificate`, { hint: 'set tls.certFile and tls.keyFile (or tls.pfxFile) to a certificate the server trusts', cause: error });
  }
  if (code.startsWith('ERR_SSL') || code === 'EPROTO' || code.startsWith('ERR_TLS')) {
    return new TlsError(`TLS error with ${host}: ${message.split('\n')[0]}`, { hint: 'check the tls settings of the request and profile', cause: error });
  }
  switch (code) {
    case 'ECONNREFUSED':
      return new NetworkError(`connection refused by ${host}`, { hint: 'is the server running and listening on that port?', cause: error });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new NetworkError(`cannot resolve host "${target.url.hostname}" (DNS lookup failed)`, { hint: 'check the host name in the URL and your network', cause: error });
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
    case 'REQFLOW_TIMEOUT':
      return new NetworkError(`${target.method} ${target.url.origin}${target.url.pathname} timed out after ${timeoutMs} ms`, { hint: 'raise it with --timeout MS', cause: error });
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return new NetworkError(`connection to ${host} was reset`, { hint: 'the server closed the connection before the response was complete', cause: error });
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new NetworkError(`host ${host} is unreachable`, { cause: error });
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_HEADER_TOKEN':
      return new NetworkError(`${host} did not answer with valid HTTP`, { hint: 'is it an HTTP server? (https:// against a plain HTTP port, or the reverse?)', cause: error });
    default:
      if (code.startsWith('HPE_')) return new NetworkError(`${host} sent a malformed HTTP response (${code})`, { cause: error });
      return new NetworkError(`request to ${host} failed: ${message.split('\n')[0]}${code ? ` (${code})` : ''}`, { cause: error });
  }
}
