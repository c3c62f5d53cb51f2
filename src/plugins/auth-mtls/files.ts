/**
 * Reading the files the `tls` settings name, and PEM parsing, with one clear exit-5 error per
 * problem that says which setting (of the request or of the profile) named the file.
 */
import { readFile } from 'node:fs/promises';
import { TlsError, fileErrorWords } from '../../core/errors/index.js';
import { notAFile } from '../../core/not-a-file.js';
import type { RequestContext } from '../../pipeline/context.js';
import type { TlsSettings } from '../../core/model.js';

export type TlsFileKey = 'certFile' | 'keyFile' | 'caFile' | 'pfxFile';

/** A file named by a tls setting: its absolute path, what it is, and who named it. */
export interface TlsFile {
  path: string;
  /** "client certificate", "client key", "CA file", "PKCS#12 file" */
  what: string;
  /** `tls.certFile of request "get-me"` / `tls.certFile of profile "dev"` */
  setting: string;
}

const WHAT: Record<TlsFileKey, string> = { certFile: 'client certificate', keyFile: 'client key', caFile: 'CA file', pfxFile: 'PKCS#12 file' };

/** Where a merged tls field came from: the request's own `tls` wins over the profile's. */
export function settingName(ctx: RequestContext, key: keyof TlsSettings): string {
  return ctx.spec.tls?.[key] !== undefined ? `tls.${key} of request "${ctx.spec.name}"` : profileSetting(ctx.profile.name, key);
}

function profileSetting(profile: string, key: keyof TlsSettings): string {
  return `tls.${key} of profile "${profile}"`;
}

export function tlsFile(ctx: RequestContext, key: TlsFileKey): TlsFile | undefined {
  const path = ctx.tls[key];
  return path === undefined ? undefined : { path, what: WHAT[key], setting: settingName(ctx, key) };
}

/** A file a profile's tls setting names, used outside any request (the OAuth endpoints); `path` already absolute. */
export function profileTlsFile(profile: string, key: TlsFileKey, path: string): TlsFile {
  return { path, what: WHAT[key], setting: profileSetting(profile, key) };
}

export function describeFile(file: TlsFile): string {
  return `${file.what} ${file.path} (${file.setting})`;
}

export async function readTlsFile(file: TlsFile): Promise<Buffer> {
  const kind = notAFile(file.path);
  if (kind) throw new TlsError(`cannot read ${describeFile(file)}: it is ${kind}, not a file`, { hint: 'name the PEM or PFX file itself' });
  try {
    return await readFile(file.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new TlsError(`${file.what} not found: ${file.path} (${file.setting})`, { hint: 'relative tls paths start at the folder of the file that names them (the request file or .profiles.json); ~ is your home folder' });
    }
    const why = fileErrorWords(code) ?? String(code ?? error);
    throw new TlsError(`cannot read ${describeFile(file)}: ${why}`, { hint: code === 'EISDIR' ? 'name the file itself, not its folder' : 'check that the file exists and that you may read it' });
  }
}

export interface PemBlock {
  label: string;
  /** The whole block, BEGIN and END lines included. */
  text: string;
}

/**
 * A block's body stops at the next BEGIN or END line: a BEGIN never ended was otherwise searched
 * for its END to the file's end, again from every later BEGIN (a 500 kB file took 10 s).
 */
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n(?:(?!-----(?:BEGIN|END) )[\s\S])*-----END \1-----/g;

export function pemBlocks(data: Buffer): PemBlock[] {
  return [...data.toString('latin1').matchAll(PEM_BLOCK)].map((match) => ({ label: match[1] as string, text: match[0] }));
}

export const isCertificateBlock = (block: PemBlock): boolean => block.label === 'CERTIFICATE';
export const isPrivateKeyBlock = (block: PemBlock): boolean => /^(?:(?:RSA|EC|DSA|ENCRYPTED) )?PRIVATE KEY$/.test(block.label);
/** PKCS#8 `ENCRYPTED PRIVATE KEY`, or a traditional key with `Proc-Type: 4,ENCRYPTED`. */
export const isEncryptedKeyBlock = (block: PemBlock): boolean => block.label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(block.text);

/** A date as users read it in messages: 2021-01-01. */
export function day(date: string): string {
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toISOString().slice(0, 10);
}
