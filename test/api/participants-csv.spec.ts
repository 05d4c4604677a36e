import { participantsFromCsv } from '../../src/tournaments/participants-csv.js';

/** Bulk registration's CSV (RFC 4180), read into rows or per-row refusals before the service sees it. */
describe('participants CSV', () => {
  it('reads the columns the header names, in any order and case, with quoted fields, CRLF or LF, and a BOM', () => {
    const csv = '\uFEFFRequestedByes,NAME,rating,externalId\r\n"2;3","Smith, Ann ""Nan""",1900,FED-1\n,Bo,,\r\n\r\n';
    expect(participantsFromCsv(csv)).toEqual({
      rows: [
        { name: 'Smith, Ann "Nan"', rating: 1900, externalId: 'FED-1', requestedByes: [2, 3], player: null },
        { name: 'Bo', rating: null, externalId: null, requestedByes: [], player: null },
      ],
      refusals: [],
    });
  });

  it('refuses every bad row by its number, and a header it cannot read as row 0', () => {
    expect(participantsFromCsv('name,rating\nA,1\nB,x\nC\nD,2 3\n').refusals).toEqual([
      { row: 2, code: 'INVALID_INPUT', message: 'rating "x" is not a whole number' },
      { row: 3, code: 'INVALID_INPUT', message: '1 fields where the header has 2' },
      { row: 4, code: 'INVALID_INPUT', message: 'rating "2 3" is not a whole number' },
    ]);
    expect(participantsFromCsv('name,requestedByes\nA,two\n').refusals[0]).toMatchObject({ row: 1, message: expect.stringMatching(/round numbers/) });
    expect(participantsFromCsv('nom,rating\nA,1\n').refusals).toEqual([{ row: 0, code: 'INVALID_INPUT', message: expect.stringMatching(/"nom" is none of them/) }]);
    expect(participantsFromCsv('name\n').refusals[0].row).toBe(0);
  });
});
