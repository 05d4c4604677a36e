import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TokenDirectory, type TokenLookup, type TokenRole, TournamentStore } from '../referee/index.js';

/** The tournaments' tokens in the token directory: a participant's, an organizer's. */
@Injectable()
export class TournamentTokens implements TokenLookup, OnModuleInit, OnModuleDestroy {
  private unregister: (() => void) | null = null;

  constructor(
    private readonly store: TournamentStore,
    private readonly directory: TokenDirectory,
  ) {}

  onModuleInit(): void {
    this.unregister = this.directory.register(this);
  }

  onModuleDestroy(): void {
    this.unregister?.();
  }

  async roleOf(tokenHash: string): Promise<TokenRole | null> {
    const participant = await this.store.participant(tokenHash);
    if (participant) return { role: 'participant', ...participant };
    const tournamentId = await this.store.organizedBy(tokenHash);
    return tournamentId === null ? null : { role: 'organizer', tournamentId };
  }
}
