import './boards.css';
import type { Board } from './board.js';
import { backgammonBoard } from './backgammon.js';
import { cerkeBoard } from './cerke.js';
import { chickenFootBoard } from './chicken-foot.js';

const BOARDS: Record<string, Board> = { backgammon: backgammonBoard, cerke: cerkeBoard, 'chicken-foot': chickenFootBoard };

/** The board of a game kind; null for a kind the page cannot draw (its view is shown as JSON). */
export const boardFor = (kind: string): Board | null => BOARDS[kind] ?? null;
