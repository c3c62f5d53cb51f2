/**
 * Which character set a text body is in, as browsers decide it: the `charset` of
 * `Content-Type`, else a byte-order mark, else (HTML) a `<meta charset>` in the first 1024
 * bytes — the HTML prescan's limit — else UTF-8. Decoding is Node's own `TextDecoder` (the
 * WHATWG Encoding standard's labels and decoders: `shift_jis`, `euc-kr`, `gb18030`,
 * `utf-16le`, …), except for windows-1252 — what `latin1` and `iso-8859-1` mean on the web —
 * where Node 20's decoder reads 0x80–0x9F as control characters instead of `€`, `“`, `™`…:
 * iconv-lite (maintained, pure JS, loaded only for such a body) decodes that one.
 */
import { lazyBuiltin } from '../../core/lazy-builtin.js';

export interface BodyCharset {
  /** The WHATWG name of the encoding (`utf-8`, `windows-1252`, `shift_jis`, …). */
  encoding: string;
  /** A label the response named that no decoder knows: shown as UTF-8, with a warning. */
  unknownLabel?: string;
}

const UTF8: BodyCharset = { encoding: 'utf-8' };
const PARAM = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]+))/i;
const META = /<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;

/** The encoding a label names, or undefined when no decoder knows it. */
function encodingOf(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

function fromBom(head: Uint8Array): string | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The body's character set from its lower-cased `Content-Type` and, when known, its first bytes
 * (for a BOM or a `<meta>`).
 */
export function charsetOf(type: string, head?: Uint8Array): BodyCharset {
  const match = PARAM.exec(type);
  const label = match ? (match[1] ?? match[2] ?? '') : undefined;
  if (label !== undefined && label !== '') {
    const encoding = encodingOf(label);
    return encoding ? { encoding } : { encoding: 'utf-8', unknownLabel: label };
  }
  if (!head) return UTF8;
  const bom = fromBom(head);
  if (bom) return { encoding: bom };
  if (type.startsWith('text/html') || type.startsWith('application/xhtml')) {
    const meta = META.exec(Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, 1024)).toString('latin1'));
    const encoding = meta?.[1] ? encodingOf(meta[1]) : undefined;
    if (encoding) return { encoding };
  }
  return UTF8;
}

/** The warning for a label nobody knows, naming it. */
export function unknownCharsetWarning(label: string): string {
  return `unknown charset ${JSON.stringify(label.slice(0, 40))} in Content-Type; shown as UTF-8`;
}

/** A decoder for one body: `decode(bytes, {stream})` as TextDecoder has it. */
export interface BodyDecoder {
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string;
}

/** The decoder for an encoding `charsetOf` returned. */
export function decoderFor(encoding: string): BodyDecoder {
  if (encoding !== 'windows-1252') return new TextDecoder(encoding);
  const iconv = lazyBuiltin<typeof import('node:module')>('node:module').createRequire(import.meta.url)('iconv-lite') as typeof import('iconv-lite');
  const decoder = iconv.getDecoder('windows-1252');
  return {
    decode: (bytes, options) => {
      const text = bytes ? decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : '';
      return options?.stream === true ? text : text + (decoder.end() ?? '');
    },
  };
}
