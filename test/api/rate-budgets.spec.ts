import { RateBudgets } from '../../src/api/rate-budgets.js';
import { loadConfig } from '../../src/config/config.js';

/** The rate budgets' refusals, on a clock the test moves: they say when to retry in words, and in seconds for programs. */
describe('rate budgets', () => {
  let now: number;
  let budgets: RateBudgets;
  beforeEach(() => {
    now = 1_000_000;
    budgets = new RateBudgets(loadConfig({ RATE_LIMIT_PER_MINUTE: '2', CREATE_QUOTA_PER_HOUR: '3', LOG_LEVEL: 'silent' }), () => now);
  });

  it('refuses a request over the minute, saying in words when to retry', () => {
    expect(budgets.charge('t:seat', 2)).toBeNull();
    now += 15_000;
    expect(budgets.charge('t:seat', 1)).toEqual({ code: 'RATE_LIMITED', message: 'more than 2 requests a minute; retry in 45 seconds', retryAfter: 45 });
    now += 45_000;
    expect(budgets.charge('t:seat', 1)).toBeNull();
  });

  it('refuses a creation over the hour, saying in words when to retry', () => {
    expect(budgets.takeCreations('203.0.113.7', 3)).toBeNull();
    expect(budgets.takeCreations('203.0.113.7', 1)).toEqual({
      code: 'RATE_LIMITED',
      message: 'more than 3 games, tournaments, players or apps created or imported an hour from this address; retry in 20 minutes',
      retryAfter: 1200,
    });
  });
});
