/**
 * A realistic JSON document of about N bytes, generated piece by piece (never held whole):
 * `{"generated": ..., "items": [ {record}, ... ], "count": N}`. Records mix integers, floats,
 * booleans, null, nested objects, arrays, escapes and non-ASCII text, so every path of a JSON
 * printer is exercised. Deterministic: the same size gives the same bytes.
 */
import { seededRandom } from './seeded-random.js';

const CITIES = ['Berlin', 'São Paulo', 'Zürich', 'Tōkyō', 'Kraków', 'New York', 'Montréal', 'Reykjavík'];
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];


function record(id, next) {
  const city = CITIES[id % CITIES.length];
  const tags = TAGS.filter(() => next() < 0.35);
  const score = Math.round(next() * 100000) / 100;
  return (
    `{"id":${id},"uuid":"${(id * 2654435761).toString(16).padStart(8, '0')}-4b1d-8c3e-${id.toString(16).padStart(12, '0')}",` +
    `"name":"User ${id}","email":"user${id}@example.com","active":${id % 3 !== 0},"score":${score},` +
    `"balance":${(next() * 20000 - 10000).toFixed(2)},"ratio":${next().toExponential(3)},"tags":${JSON.stringify(tags)},` +
    `"address":{"street":"${id % 97} Main Street","city":"${city}","zip":"${String(10000 + (id % 89999))}",` +
    `"geo":{"lat":${(next() * 180 - 90).toFixed(6)},"lng":${(next() * 360 - 180).toFixed(6)}}},` +
    `"bio":"Caf\\u00e9 regular \\"no. ${id % 10}\\" \\/ likes \\ud83d\\ude00 and tabs\\tok","parent":${id % 5 === 0 ? 'null' : id - 1},` +
    `"history":[${id % 4},${(id * 7) % 13},${(id * 11) % 17}],"meta":{}}`
  );
}

/**
 * Yields the document as text pieces of about `chunkChars` characters, `totalBytes` long in
 * all (± one record).
 */
export function* jsonDocumentChunks(totalBytes, chunkChars = 64 * 1024) {
  const next = seededRandom(totalBytes);
  const head = '{"generated":"2024-05-01T12:00:00Z","source":"reqflow bench","items":[';
  let size = head.length;
  let piece = head;
  let id = 0;
  for (; size < totalBytes - 40; id++) {
    const text = (id === 0 ? '' : ',') + record(id, next);
    piece += text;
    size += Buffer.byteLength(text);
    if (piece.length >= chunkChars) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}],"count":${id}}`;
}

/** The whole document as one Buffer (for a server that serves it many times). */
export function jsonDocument(totalBytes) {
  return Buffer.from([...jsonDocumentChunks(totalBytes)].join(''), 'utf8');
}
