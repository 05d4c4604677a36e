import { Injectable } from '@nestjs/common';
import { AccountService, type KeyHolder, RefereeError } from '../referee/index.js';
import { appModel, keyModel, type Me, playerModel, type Scope } from './models.js';

/** The caller's account as `me` (GraphQL) and GET /api/me answer it. */
@Injectable()
export class PlayerAccounts {
  constructor(private readonly accounts: AccountService) {}

  async of(holder: KeyHolder | null): Promise<Me> {
    if (!holder) throw new RefereeError('UNAUTHORIZED', "`me` needs a player's or an app's key as a Bearer token");
    const account = await this.accounts.account(holder.ownerId);
    const keys = (await this.accounts.keys(account.accountId)).map(keyModel);
    return {
      player: account.kind === 'player' ? playerModel(account) : null,
      app: account.kind === 'app' ? appModel(account) : null,
      keyId: holder.keyId,
      scopes: [...holder.scopes] as Scope[],
      keys,
    };
  }
}
