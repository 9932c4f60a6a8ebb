/** The WebSocket order-book client (docs/websocket-client.md). */
export { BookClient, BookClientError, type BookClientEvents, type BookClientOptions, type ResyncReason } from './book-client.js';
export { LocalBook, type ApplyResult } from './local-book.js';
export { backoffDelay, type BackoffOptions } from './backoff.js';
export type { KeepAliveOptions, WebSocketConstructor, WebSocketLike } from './channel-socket.js';
export { channelUrl } from './socket-url.js';
export * from './messages.js';
export { UserClient, type UserClientEvents, type UserClientOptions } from './user-client.js';
export { bookHash, canonicalBookText } from './book-hash.js';
