/**
 * The fields of a Postman collection (v2.0, v2.1) that the SDK and the importer read, with their
 * types (Postman's published schema, loosened where both versions or its own exports differ: a
 * URL as text or an object, a header list or its raw text, a script as text or lines). Checked
 * before the SDK sees the document (document-shape.ts).
 */
import type { Shape } from '../document-shape.js';

/** A list, or one of its values alone: the SDK takes either (newman's own collections write one `event` object). */
const listOf = (shape: Shape): Shape => ({ either: [{ list: shape }, shape] });

const KEY_VALUE: Shape = { fields: { key: 'text', contentType: 'text' } };

const URL: Shape = {
  either: [
    'text',
    {
      fields: {
        raw: 'text',
        protocol: 'text',
        host: { either: ['text', { list: 'text' }] },
        path: { either: ['text', { list: { either: ['text', { fields: { value: 'text' } }] } }] },
        port: 'text',
        query: listOf(KEY_VALUE),
        hash: 'text',
      },
    },
  ],
};

const BODY: Shape = {
  fields: {
    mode: 'text',
    raw: 'text',
    urlencoded: listOf(KEY_VALUE),
    formdata: listOf({ fields: { key: 'text', contentType: 'text', src: { either: ['text', { list: 'text' }] } } }),
    file: { fields: { src: 'text' } },
    graphql: { fields: { query: 'text', variables: 'text' } },
   
  },
};

const REQUEST: Shape = {
  either: [
    'text',
    {
      fields: {
        method: 'text',
        url: URL,
        header: { either: ['text', { list: { either: ['text', KEY_VALUE] } }, KEY_VALUE] },
        body: BODY,
        auth: { fields: { type: 'text' } },
      },
    },
  ],
};

const EVENT: Shape = { fields: { script: { fields: { exec: { either: ['text', { list: 'text' }] } } } } };

/** An item or a folder (whose `item` holds more of them). Variables are not checked: their names and values are read as whatever they are. */
const ITEM = (): Shape => ({ fields: { name: 'text', item: listOf(ITEM), request: REQUEST, event: listOf(EVENT), auth: { fields: { type: 'text' } } } });

export const COLLECTION: Shape = {
  fields: { info: { fields: { name: 'text', schema: 'text' } }, item: { list: ITEM }, event: listOf(EVENT), auth: { fields: { type: 'text' } } },
  required: ['item'],
};
