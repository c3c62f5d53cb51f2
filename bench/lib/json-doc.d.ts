/** See json-doc.js. */
export function jsonDocumentChunks(totalBytes: number, chunkChars?: number): Generator<string, void, undefined>;
export function jsonDocument(totalBytes: number): Buffer;
