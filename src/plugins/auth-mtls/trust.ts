/** `tls.caFile`: extra certificate authorities to trust (PEM, one or more certificates). */
import { X509Certificate } from 'node:crypto';
import { TlsError } from '../../core/errors/index.js';
import { describeFile, isCertificateBlock, pemBlocks, readTlsFile, type TlsFile } from './files.js';

export async function loadCaFile(file: TlsFile): Promise<Buffer> {
  const data = await readTlsFile(file);
  const certificates = pemBlocks(data).filter(isCertificateBlock);
  if (certificates.length === 0) {
    throw new TlsError(`${describeFile(file)} holds no PEM certificate`, { hint: 'caFile must contain -----BEGIN CERTIFICATE----- blocks (convert DER with: openssl x509 -inform der -in FILE -out ca.pem)' });
  }
  certificates.forEach((block, index) => {
    try {
      new X509Certificate(block.text);
    } catch {
      throw new TlsError(`${describeFile(file)}: certificate ${index + 1} is damaged and cannot be parsed`, { hint: 'export the CA certificate again' });
    }
  });
  return Buffer.from(certificates.map((block) => block.text).join('\n'));
}
