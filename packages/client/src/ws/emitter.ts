/**
 * A small typed event emitter, so that the client runs the same in node and in a browser
 * (no node:events). A listener that throws does not stop the others: its error goes to the
 * `error` listeners, or is rethrown on a later turn when there are none. Unlike node's emitter,
 * an `error` event without listeners is dropped (refusals also reject the subscribe promise).
 */
export type Listener<T> = (payload: T) => void;

export class Emitter<Events extends { error: unknown }> {
  private listeners = new Map<keyof Events, Set<Listener<never>>>();

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => this.off(event, listener);
  }

  once<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    const off = this.on(event, (payload) => {
      off();
      listener(payload);
    });
    return off;
  }

  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    this.listeners.get(event)?.delete(listener as Listener<never>);
  }

  /** Drops every listener (close()). */
  removeAll(): void {
    this.listeners.clear();
  }

  protected emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return; // an `error` nobody listens to is dropped: subscribe() rejects for refusals anyway
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (err) {
        // A listener's own bug: to the `error` listeners, or thrown on a later turn as node would.
        if (event !== 'error' && (this.listeners.get('error')?.size ?? 0) > 0) this.emit('error', err as Events['error']);
        else
          queueMicrotask(() => {
            throw err;
          });
      }
    }
  }
}
