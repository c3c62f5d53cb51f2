/**
 * The client identity for mutual TLS: a PEM certificate and key (`certFile`, `keyFile`, the key
 * possibly encrypted under `passphrase`) or a PKCS#12 bundle (`pfxFile`). Everything a server
 * would reject for reasons we can see is checked here, before connecting: files that are not
 * PEM, a wrong passphrase, a key that does not belong to the certificate, an expired certificate.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { TlsError } from '../../core/errors/index.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { TlsConnectionOptions } from '../../core/model.js';
import { day, describeFile, isCertificateBlock, isEncryptedKeyBlock, isPrivateKeyBlock, pemBlocks, readTlsFile, settingName, tlsFile, type PemBlock, type TlsFile } from './files.js';

type Identity = Pick<TlsConnectionOptions, 'cert' | 'key' | 'pfx' | 'passphrase'>;

/**
 * Which identity the merged settings describe. When the profile names one kind and the request
 * the other, the request's wins; both kinds at the same level are a contradiction.
 */
function identityKind(ctx: RequestContext): 'pem' | 'pfx' | undefined {
  const pem = (tls: { certFile?: string; keyFile?: string } | undefined): boolean => tls?.certFile !== undefined || tls?.keyFile !== undefined;
  const hasPem = pem(ctx.tls);
  const hasPfx = ctx.tls.pfxFile !== undefined;
  if (!hasPem || !hasPfx) return hasPem ? 'pem' : hasPfx ? 'pfx' : undefined;
  const requestPem = pem(ctx.spec.tls);
  const requestPfx = ctx.spec.tls?.pfxFile !== undefined;
  if (requestPem !== requestPfx) return requestPem ? 'pem' : 'pfx';
  throw new TlsError(`both ${settingName(ctx, 'pfxFile')} and ${settingName(ctx, ctx.tls.certFile !== undefined ? 'certFile' : 'keyFile')} are set`, {
    hint: 'give the client certificate either as certFile + keyFile (PEM) or as pfxFile (PKCS#12), not both',
  });
}

export async function loadIdentity(ctx: RequestContext): Promise<Identity> {
  const kind = identityKind(ctx);
  if (kind === 'pfx') return loadPfx(ctx, tlsFile(ctx, 'pfxFile') as TlsFile);
  if (kind === 'pem') return loadPem(ctx);
  return {};
}

function notPemCertificate(file: TlsFile, data: Buffer): TlsError {
  let der = false;
  try {
    new X509Certificate(data); // DER parses; PEM was ruled out already
    der = true;
  } catch {
    // neither PEM nor DER: some other file
  }
  return new TlsError(`${describeFile(file)} is not a PEM certificate`, {
    hint: der ? `it is DER; convert it with: openssl x509 -inform der -in ${file.path} -out client.pem` : 'expected a file with a -----BEGIN CERTIFICATE----- block; is it the right file?',
  });
}

function checkValidity(certificate: X509Certificate, file: TlsFile): void {
  const now = Date.now();
  if (now > new Date(certificate.validTo).getTime()) {
    throw new TlsError(`${describeFile(file)} expired on ${day(certificate.validTo)}`, { hint: 'servers refuse an expired client certificate; get a new one issued' });
  }
  if (now < new Date(certificate.validFrom).getTime()) {
    throw new TlsError(`${describeFile(file)} is not valid before ${day(certificate.validFrom)}`, { hint: 'check the system clock, or wait until the certificate becomes valid' });
  }
}

function privateKey(ctx: RequestContext, block: PemBlock, file: TlsFile): KeyObject {
  const passphrase = ctx.tls.passphrase;
  if (isEncryptedKeyBlock(block) && passphrase === undefined) {
    throw new TlsError(`${describeFile(file)} is encrypted and no passphrase is set`, { hint: 'set tls.passphrase, e.g. "passphrase": "{{keyPassphrase}}" with -e keyPassphrase=... (or an interactive profile variable)' });
  }
  try {
    return createPrivateKey({ key: block.text, format: 'pem', ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (/BAD_DECRYPT|INTERRUPTED_OR_CANCELLED/.test(code)) {
      throw new TlsError(`wrong passphrase for ${describeFile(file)}`, { hint: `check ${settingName(ctx, 'passphrase')}` });
    }
    throw new TlsError(`${describeFile(file)} is not a usable private key`, { hint: 'expected a PEM private key (-----BEGIN PRIVATE KEY-----); convert others with: openssl pkey -in KEY -out key.pem' });
  }
}

async function loadPem(ctx: RequestContext): Promise<Identity> {
  const certFile = tlsFile(ctx, 'certFile');
  const keyFile = tlsFile(ctx, 'keyFile');
  if (!certFile) {
    throw new TlsError(`${settingName(ctx, 'keyFile')} is set but no client certificate is`, { hint: 'set tls.certFile to the certificate that belongs to the key (or use tls.pfxFile)' });
  }
  const certData = await readTlsFile(certFile);
  const certBlocks = pemBlocks(certData);
  const certificates = certBlocks.filter(isCertificateBlock);
  if (certificates.length === 0) throw notPemCertificate(certFile, certData);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate((certificates[0] as PemBlock).text);
  } catch {
    throw new TlsError(`${describeFile(certFile)} holds a damaged certificate that cannot be parsed`, { hint: 'export the client certificate again' });
  }
  // Like curl, a certificate file that also holds the key needs no keyFile.
  const keySource = keyFile ?? certFile;
  const keyBlock = (keyFile ? pemBlocks(await readTlsFile(keyFile)) : certBlocks).find(isPrivateKeyBlock);
  if (!keyBlock) {
    if (!keyFile) throw new TlsError(`${settingName(ctx, 'certFile')} is set but no client key is (and ${certFile.path} holds none)`, { hint: 'set tls.keyFile to the private key of the certificate (or use tls.pfxFile)' });
    throw new TlsError(`${describeFile(keyFile)} is not a PEM private key`, { hint: 'expected a -----BEGIN PRIVATE KEY----- block; convert a DER key with: openssl pkey -inform der -in KEY -out key.pem' });
  }
  const key = privateKey(ctx, keyBlock, keySource);
  if (!leaf.checkPrivateKey(key)) {
    throw new TlsError(`${describeFile(keySource)} does not match ${describeFile(certFile)}`, {
      hint: `keyFile must be the private key of certFile; compare: openssl x509 -noout -pubkey -in ${certFile.path}  and  openssl pkey -pubout -in ${keySource.path}`,
    });
  }
  checkValidity(leaf, certFile);
  return {
    cert: Buffer.from(certificates.map((block) => block.text).join('\n')),
    key: Buffer.from(keyBlock.text),
    ...(ctx.tls.passphrase !== undefined ? { passphrase: ctx.tls.passphrase } : {}),
  };
}

async function loadPfx(ctx: RequestContext, file: TlsFile): Promise<Identity> {
  const pfx = await readTlsFile(file);
  const passphrase = ctx.tls.passphrase;
  let secureContext: ReturnType<typeof createSecureContext>;
  try {
    secureContext = createSecureContext({ pfx, ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/mac verify failure|bad decrypt/i.test(message)) {
      throw new TlsError(passphrase === undefined ? `${describeFile(file)} is protected and no passphrase is set` : `wrong passphrase for ${describeFile(file)}`, { hint: `set ${passphrase === undefined ? 'tls.passphrase' : `the right value in ${settingName(ctx, 'passphrase')}`}` });
    }
    if (/unsupported/i.test(message)) {
      throw new TlsError(`${describeFile(file)} uses a legacy algorithm (RC2/3DES) that OpenSSL 3 disables`, { hint: `re-export it: openssl pkcs12 -legacy -in ${file.path} -nodes | openssl pkcs12 -export -out client-new.p12` });
    }
    throw new TlsError(`${describeFile(file)} is not a PKCS#12 (.p12/.pfx) bundle`, { hint: 'PEM files go in tls.certFile and tls.keyFile instead' });
  }
  // The bundle's certificate, when this Node exposes it (an undocumented accessor): check its dates.
  const native = (secureContext as { context?: { getCertificate?: () => Buffer | null } }).context;
  const der = typeof native?.getCertificate === 'function' ? native.getCertificate() : null;
  if (der) checkValidity(new X509Certificate(der), file);
  return { pfx, ...(passphrase !== undefined ? { passphrase } : {}) };
}
