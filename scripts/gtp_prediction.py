#!/usr/bin/env python3
"""Move prediction through GTP, as docs/learning.md measures it: the 8 reference games
(../shared/data/gnugo/games), moves 11-200; for each position `clear_board`, `play` the moves
before it, `genmove` the side to move; prints top-1 per game and overall, and the mean wall time
of `genmove` (the GTP round trip included).

Usage, from the repository root:
    python3 scripts/gtp_prediction.py target/release/examples/gtp --policy-rom POLICY.rom
    python3 scripts/gtp_prediction.py gnugo --mode gtp --level 1
Any GTP engine works: the arguments are its command line."""
import re, subprocess, sys, time, glob, os
cmd = sys.argv[1:]
HERE = os.path.dirname(os.path.abspath(__file__))
games = sorted(glob.glob(os.path.join(HERE, '..', '..', 'shared', 'data', 'gnugo', 'games', '*.sgf')))
if not games: raise SystemExit('no games: ../shared/data/gnugo/games must be beside the repository')
COLS = 'ABCDEFGHJKLMNOPQRST'
def vertex(x, y): return f'{COLS[x]}{19 - y}'
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def gtp(c):
    p.stdin.write(c + '\n'); p.stdin.flush()
    lines = []
    while True:
        l = p.stdout.readline()
        if l == '': raise SystemExit('engine died on ' + c)
        if l.strip() == '' and lines: break
        if l.strip() == '': continue
        lines.append(l.strip())
    r = ' '.join(lines)
    if not r.startswith('='): raise SystemExit(f'{c}: {r}')
    return r[1:].strip()
gtp('boardsize 19')
total = hits = 0; t = 0.0; per = {}
for g in games:
    text = open(g, encoding='latin-1').read()
    moves = [(c, m) for c, m in re.findall(r';\s*([BW])\[([a-s]{0,2})\]', text)]
    name = os.path.basename(g); h = n = 0
    for k in range(11, 201):
        if k > len(moves): break
        c, m = moves[k - 1]
        if len(m) != 2: continue
        gtp('clear_board')
        for c2, m2 in moves[:k - 1]:
            v = 'pass' if len(m2) != 2 else vertex(ord(m2[0]) - 97, ord(m2[1]) - 97)
            gtp(f'play {c2} {v}')
        s = time.perf_counter(); r = gtp(f'genmove {c}'); t += time.perf_counter() - s
        want = vertex(ord(m[0]) - 97, ord(m[1]) - 97)
        n += 1; h += (r.upper() == want)
    per[name] = (h, n); total += n; hits += h
for k, (h, n) in per.items(): print(f'{k}: {h}/{n} = {100*h/n:.1f}%')
print(f'top-1 {hits}/{total} = {100*hits/total:.2f}%, {1000*t/total:.3f} ms per genmove')
