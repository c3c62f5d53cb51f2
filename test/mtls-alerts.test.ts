/**
 * The TLS alerts a server may send about the client certificate, as Node reports them (codes and
 * messages copied from real failures: TLS 1.3 alerts carry an ERR_SSL_* code, TLS 1.2 ones come
 * as EPROTO with the alert number in the message). The end-to-end cases are in mtls-errors.
 */
import { describe, expect, test } from '@jest/globals';
import { toRequestError } from '../src/core/http/network-errors.js';

const url = new URL('https://api.example.com:8443/x');
const nodeError = (code: string, message: string): Error => Object.assign(new Error(message), { code });
const line = (code: string, message: string, extra: object = {}) => {
  const error = toRequestError(nodeError(code, message), { method: 'GET', url, ...extra }, 1000);
  return { exitCode: error.exitCode, message: error.message, hint: error.hint };
};

describe('TLS alerts and resets, mapped', () => {
  test.each([
    ['ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED', 'error:0A000415:SSL routines:ssl3_read_bytes:sslv3 alert certificate expired:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 45', /rejected the client certificate: it has expired/],
    ['ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', 'error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:SSL alert number 42', /rejected the client certificate \(bad certificate\)/],
    ['EPROTO', 'write EPROTO 809C:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 40', /TLS handshake failed \(the server may require a client certificate/],
    ['ERR_SSL_TLSV1_ALERT_ACCESS_DENIED', 'tlsv1 alert access denied', /denied access to this client certificate/],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'tlsv13 alert certificate required:SSL alert number 116', /requires a client certificate and none was sent/],
  ])('%s is exit 5 with a clear line', (code, message, expected) => {
    const mapped = line(code, message);
    expect(mapped.exitCode).toBe(5);
    expect(mapped.message).toMatch(/^TLS error with api\.example\.com:8443: /);
    expect(mapped.message).toMatch(expected);
    expect(mapped.hint).toBeTruthy();
  });

  test('a reset is about the client certificate only on a fresh https connection that offered one', () => {
    expect(line('ECONNRESET', 'socket hang up', { clientCertificate: true }).message).toMatch(/most likely rejected the client certificate/);
    expect(line('ECONNRESET', 'socket hang up', { clientCertificate: true, reusedSocket: true })).toMatchObject({ exitCode: 4, message: 'connection to api.example.com:8443 was reset' });
    expect(line('ECONNRESET', 'socket hang up', {}).exitCode).toBe(4);
  });
});
