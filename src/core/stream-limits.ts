/**
 * The largest event a stream may send — a server-sent event, a WebSocket message (all its
 * fragments), a GraphQL subscription result: an endless one must not eat the memory, and every
 * kind of stream stops at the same size.
 */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;
