#!/usr/bin/env node
/**
 * Runs the three example bots one after the other against ARBITER_URL (default
 * http://127.0.0.1:3000): `npm run examples`. Exits 1 if any game does not finish or verify.
 */
import { backgammonBot } from './backgammon.js';
import { cerkeBot } from './cerke.js';
import { chickenFootBot } from './chicken-foot.js';
import { playWholeGame } from './lib/harness.js';

const failed: string[] = [];
for (const bot of [backgammonBot, chickenFootBot, cerkeBot]) {
  if (!(await playWholeGame(bot))) failed.push(bot.kind);
}
console.log(failed.length === 0 ? 'examples: all three games finished and verify' : `examples: FAILED: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
