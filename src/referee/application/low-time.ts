import type { LiveGame } from './live-games.js';

/** Told by the deadline worker when a running seat's time is low (the webhooks' notifications are one). */
export interface LowTimeListener<G = LiveGame> {
  /** Per seat, the thresholds (seconds left, highest first) to be told at; a seat past the end has none. */
  lowTimeThresholds(game: G): Promise<number[][]>;
  /** A seat of `game` (as stored) has `remainingMs` left, at or below one of its thresholds. Safe to repeat. */
  timeRunningLow(game: G, seat: number, remainingMs: number): Promise<void>;
}

/**
 * The low-time listeners, registered by the modules that tell low time: the deadline worker asks
 * them for their thresholds (a row's next warning) and tells them each crossing. With none, no
 * warning is due, and a warning that comes is left for a listener to come (see DeadlineWorker).
 */
export class LowTimeListeners implements LowTimeListener {
  private listeners: readonly LowTimeListener[] = [];

  /** Told from now on, until the returned function is called. */
  register(listener: LowTimeListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Whether any listener is registered now. */
  get listening(): boolean {
    return this.listeners.length > 0;
  }

  /** Every listener's thresholds, per seat, highest first. */
  async lowTimeThresholds(game: LiveGame): Promise<number[][]> {
    const all = await Promise.all(this.listeners.map((l) => l.lowTimeThresholds(game)));
    if (all.length <= 1) return all[0] ?? [];
    const seats = Math.max(...all.map((perSeat) => perSeat.length));
    return Array.from({ length: seats }, (_, seat) => [...new Set(all.flatMap((perSeat) => perSeat[seat] ?? []))].sort((a, b) => b - a));
  }

  async timeRunningLow(game: LiveGame, seat: number, remainingMs: number): Promise<void> {
    await Promise.all(this.listeners.map((l) => l.timeRunningLow(game, seat, remainingMs)));
  }
}
