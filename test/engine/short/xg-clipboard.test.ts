import { makeXgid, parseXgClipboard, parseXgid } from '../../../src/engine/short/xgid';

const CLIPBOARD = `XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10

X:Player 2   O:Player 1
Score is X:0 O:0 Money session
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 | X           O    |   | O              X |
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
v|                  |BAR|                  |
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |
 | O           X    |   | X              O |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Pip count  X: 167  O: 167 X-O: 0-0
Cube: 1
O to play 52

eXtreme Gammon Version: 2.19.211.pre-release
`;

describe('XG clipboard text', () => {
  it('reads the position, the dice and the cube from its XGID line, as the XGID itself', () => {
    const fromClipboard = parseXgClipboard(CLIPBOARD);
    const fromId = parseXgid('-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10');
    expect(fromClipboard.ok && fromId.ok).toBe(true);
    if (!fromClipboard.ok || !fromId.ok) return;
    expect(makeXgid(fromClipboard.value)).toBe(makeXgid(fromId.value));
    expect(fromClipboard.value.dice).toEqual([5, 2]);
  });

  it('refuses text without an XGID line, naming the field', () => {
    const r = parseXgClipboard('Pip count  X: 167  O: 167');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'INVALID_POSITION_ID', field: 'text' });
  });
});
