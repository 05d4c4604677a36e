/** At most `bound` values by key; the least recently set is dropped first (a Map keeps its keys in the order they were set). */
export class Lru<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly bound: number) {}

  get size(): number {
    return this.values.size;
  }

  /** The value, without making it recently used. */
  peek(key: string): V | undefined {
    return this.values.get(key);
  }

  /** Keeps the value as the most recently used, dropping the least recently used beyond the bound. */
  set(key: string, value: V): void {
    this.values.delete(key);
    this.values.set(key, value);
    if (this.values.size > this.bound) this.values.delete(this.values.keys().next().value!);
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  keys(): IterableIterator<string> {
    return this.values.keys();
  }
}
