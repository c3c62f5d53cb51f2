/**
 * TLS failures as one clear line (exit 5) with a hint: the server's certificate not trusted,
 * expired or for another host; the server refusing or requiring a client certificate (a TLS
 * alert, or a connection dropped right after the handshake); unusable client key material.
 */
import { TlsError } from '../errors/index.js';

/** What `send` knows about the connection that failed. */
export interface TlsTarget {
  url: URL;
  /** A client certificate (cert/key or PKCS#12) was offered. */
  clientCertificate?: boolean;
  /** The request went out on a kept-alive socket (a reset there is not about the handshake). */
  reusedSocket?: boolean;
  /** Verification cannot be turned off for it (an OAuth endpoint): no hint offers insecureSkipVerify. */
  verifyAlways?: boolean;
}

interface Explanation {
  what: string;
  hint: string;
  /** insecureSkipVerify would get past it (for testing only): said, where it can be set. */
  skippable?: true;
}

const SKIP_HINT = '; insecureSkipVerify skips the check, for testing only';
const TRUST_HINT = 'trust the CA that issued it with tls.caFile (PEM)';

/** OpenSSL's verification results for the server's certificate, as Node names them. */
const SERVER_CERTIFICATE: Record<string, Explanation> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: { what: 'the server certificate is self-signed and not trusted', hint: 'trust that certificate with tls.caFile (PEM)', skippable: true },
  SELF_SIGNED_CERT_IN_CHAIN: { what: 'the server certificate is not trusted (its chain ends in an unknown CA)', hint: TRUST_HINT, skippable: true },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { what: 'the server certificate is not trusted (unknown issuer)', hint: TRUST_HINT, skippable: true },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { what: 'the server certificate is not trusted (unknown issuer)', hint: TRUST_HINT, skippable: true },
  UNABLE_TO_GET_ISSUER_CERT: { what: 'the server certificate is not trusted (unknown issuer)', hint: TRUST_HINT, skippable: true },
  CERT_UNTRUSTED: { what: 'the server certificate is not trusted', hint: TRUST_HINT, skippable: true },
  INVALID_CA: { what: 'the server certificate chain has an invalid CA certificate', hint: 'the server must send a proper chain; check its CA certificates' },
  CERT_SIGNATURE_FAILURE: { what: 'the server certificate signature is invalid', hint: 'the server certificate is damaged or forged; check the server' },
  CERT_HAS_EXPIRED: { what: 'the server certificate has expired', hint: "the server must renew its certificate (or this machine's clock is wrong)", skippable: true },
  CERT_NOT_YET_VALID: { what: 'the server certificate is not valid yet', hint: "check this machine's clock" },
  CERT_REVOKED: { what: 'the server certificate has been revoked', hint: 'the server must get a new certificate' },
};

const CLIENT_HINT = 'set tls.certFile and tls.keyFile (or tls.pfxFile) to a certificate issued by a CA the server trusts';

/** TLS alerts (RFC 8446 §6) a server sends, by number, as they concern the client. */
const ALERTS: Record<number, Explanation> = {
  40: { what: 'the TLS handshake failed (the server may require a client certificate, or shares no TLS version or cipher with reqflow)', hint: CLIENT_HINT },
  42: { what: 'the server rejected the client certificate (bad certificate)', hint: CLIENT_HINT },
  43: { what: 'the server rejected the client certificate (unsupported certificate type or usage)', hint: 'the client certificate must allow client authentication (extendedKeyUsage clientAuth)' },
  44: { what: 'the server rejected the client certificate: it has been revoked', hint: 'get a new client certificate issued' },
  45: { what: 'the server rejected the client certificate: it has expired', hint: 'get a new client certificate issued' },
  46: { what: 'the server rejected the client certificate (certificate unknown)', hint: CLIENT_HINT },
  48: { what: 'the server rejected the client certificate: it was not issued by a CA the server trusts', hint: CLIENT_HINT },
  49: { what: 'the server denied access to this client certificate', hint: 'the server knows the certificate but does not allow it; ask for access or use another certificate' },
  70: { what: 'the server does not accept the TLS version reqflow offers', hint: 'the server may only speak an old TLS version that Node disables' },
  112: { what: 'the server does not serve the host name in the URL (SNI)', hint: 'check the host name in the URL' },
  116: { what: 'the server requires a client certificate and none was sent', hint: 'set tls.certFile and tls.keyFile (or tls.pfxFile) in the request or profile' },
  120: { what: 'the server does not speak the HTTP version the request asks for (it refused it by ALPN)', hint: 'an HTTP/2-only server: write HTTP/2 in the request line (or remove HTTP/1.1 from it)' },
};

/** The alert number in OpenSSL's message (`SSL alert number 48`), or from Node's code name. */
function alertNumber(code: string, message: string): number | undefined {
  const fromMessage = /SSL alert number (\d+)/.exec(message);
  if (fromMessage) return Number(fromMessage[1]);
  const byName: Record<string, number> = {
    ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 40,
    ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 42,
    ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE: 43,
    ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED: 44,
    ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: 45,
    ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 46,
    ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 48,
    ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: 49,
    ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 70,
    ERR_SSL_TLSV1_UNRECOGNIZED_NAME: 112,
    ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 116,
  };
  return byName[code];
}

/** OpenSSL refusing the client's own certificate, key or bundle when the connection is set up. */
function clientMaterial(code: string, message: string): string | undefined {
  if (code === 'ERR_OSSL_PEM_NO_START_LINE' || code === 'ERR_OSSL_PEM_BAD_END_LINE') return 'the client certificate or key is not PEM';
  if (code === 'ERR_OSSL_X509_KEY_VALUES_MISMATCH') return 'the client key does not match the client certificate';
  if (code === 'ERR_OSSL_BAD_DECRYPT' || code === 'ERR_OSSL_EVP_BAD_DECRYPT' || /bad decrypt|mac verify failure|bad password/i.test(message)) return 'cannot decrypt the client key or PKCS#12 bundle (wrong passphrase?)';
  if (message === 'not enough data' || /^(unsupported )?pkcs12/i.test(message)) return 'the PKCS#12 file is not a valid bundle';
  if (code.startsWith('ERR_OSSL_')) return `cannot use the client certificate or key: ${message.split('\n')[0]}`;
  return undefined;
}

/** `Host: x. is not in the cert's altnames: DNS:a, DNS:b` → the names the certificate is for. */
function certificateNames(error: { cert?: { subjectaltname?: string; subject?: { CN?: string } } }): string {
  return error.cert?.subjectaltname || (error.cert?.subject?.CN ? `CN=${error.cert.subject.CN}` : 'other names');
}

/** The TLS error for a Node error, or undefined when it is not about TLS. */
export function toTlsError(error: unknown, target: TlsTarget): TlsError | undefined {
  const err = error as NodeJS.ErrnoException & { reason?: string; cert?: { subjectaltname?: string } };
  const code = err.code ?? '';
  const message = String(err.message ?? err);
  const host = target.url.host;
  const fail = (what: string, hint: string): TlsError => new TlsError(`TLS error with ${host}: ${what}`, { hint, cause: error });

  const server = SERVER_CERTIFICATE[code];
  if (server) return fail(server.what, server.skippable && target.verifyAlways !== true ? `${server.hint}${SKIP_HINT}` : server.hint);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return fail(`the server certificate is for ${certificateNames(err)}, not for ${target.url.hostname} (host name mismatch)`, 'use a URL with a host name the certificate lists, or have the certificate reissued with this name in subjectAltName');
  }
  const alert = alertNumber(code, message);
  if (alert !== undefined && ALERTS[alert]) return fail((ALERTS[alert] as Explanation).what, (ALERTS[alert] as Explanation).hint);
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(message)) {
    return fail('the server did not answer with TLS', 'is it a plain HTTP port? use http:// for it');
  }
  // A Node server (and some proxies) check the client certificate after the TLS 1.3 handshake
  // and just drop the connection: on a fresh https connection that offered one, that is why.
  if ((code === 'ECONNRESET' || code === 'EPIPE') && target.clientCertificate === true && target.reusedSocket !== true && target.url.protocol === 'https:') {
    return fail('the server closed the connection during the TLS handshake: it most likely rejected the client certificate', 'check that the server trusts the CA that issued tls.certFile (or tls.pfxFile) and that the certificate allows client authentication');
  }
  const material = clientMaterial(code, message);
  if (material) return new TlsError(material, { hint: 'check tls.certFile, tls.keyFile, tls.pfxFile and tls.passphrase of the request and profile', cause: error });
  if (code.startsWith('ERR_SSL') || code === 'EPROTO' || code.startsWith('ERR_TLS')) {
    return fail(message.split('\n')[0] ?? message, 'check the tls settings of the request and profile');
  }
  return undefined;
}
