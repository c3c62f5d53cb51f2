import { readFile } from 'node:fs/promises';
import { TlsError } from '../../core/errors/index.js';
import type { Plugin, RequestContext } from '../../core/pipeline.js';

async function readPem(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TlsError(`cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code)}`, { hint: 'check the tls paths (relative paths start at the file that names them)' });
  }
}

/** Turns the merged `tls` settings into Node TLS options (file contents), and warns about skipped verification. */
async function applyTls(ctx: RequestContext): Promise<RequestContext> {
  const { tls } = ctx;
  if (tls.certFile) ctx.tlsOptions.cert = await readPem(tls.certFile, 'client certificate');
  if (tls.keyFile) ctx.tlsOptions.key = await readPem(tls.keyFile, 'client key');
  if (tls.caFile) ctx.tlsOptions.ca = [await readPem(tls.caFile, 'CA file')];
  if (tls.pfxFile) ctx.tlsOptions.pfx = await readPem(tls.pfxFile, 'PKCS#12 file');
  if (tls.passphrase !== undefined) ctx.tlsOptions.passphrase = tls.passphrase;
  if (tls.insecureSkipVerify === true) {
    ctx.tlsOptions.rejectUnauthorized = false;
    ctx.warn(`TLS certificate verification is disabled for "${ctx.spec.name}" (insecureSkipVerify)`);
  }
  return ctx;
}

const plugin: Plugin = { name: 'auth-mtls', stages: { auth: applyTls } };
export default plugin;
