#!/usr/bin/env python3
"""test/bench/compare_report.py CSV MD CHARTDIR: the Markdown tables of the
compare benchmark (test/bench/compare.sh) from its CSV, printed and written
to MD, and two gnuplot scripts in CHARTDIR (compare.gp: 1-client median of
each read pattern per model and scale on the busiest arguments;
compare_growth.gp: median latency against scale per read pattern on the
constant-answer arguments), each writing the SVG named in CHARTDIR/svg_*."""
import collections
import csv
import os
import sys

src, md_path, chart_dir = sys.argv[1:4]
rows = list(csv.DictReader(open(src)))
MODELS = ['hroe_normalized', 'hroe_single', 'hroe_multi', 'floor']
SHORT = {'hroe_normalized': 'normalized', 'hroe_single': 'single', 'hroe_multi': 'multi', 'floor': 'floor'}
models = [m for m in MODELS if any(r['model'] == m for r in rows)]
has_floor = 'floor' in models
scales = sorted({r['scale'] for r in rows}, key=float)
first, last = (scales[0], scales[-1]) if scales else ('', '')

# cell[(scale, pattern, args_set, model, clients)] = row
cell = {}
order = []  # (pattern_no, pattern, kind, args_set) in the order of the CSV
for r in rows:
    cell[(r['scale'], r['pattern'], r['args_set'], r['model'], r['clients'])] = r
    k = (int(r['pattern_no']), r['pattern'], r['kind'], r['args_set'])
    if k not in order:
        order.append(k)
SET_ORDER = {'round trip': 0, 'busiest': 1, 'constant': 2, 'write': 3}
order.sort(key=lambda k: (k[2] == 'write', k[0], SET_ORDER.get(k[3], 9)))


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def ms(v):
    v = num(v)
    if v is None:
        return ''
    return f'{v:.3f}' if v < 10 else f'{v:.2f}' if v < 100 else f'{v:.1f}'


def lat(r):
    """a cell's median with its lowest and highest round"""
    if not r or num(r['median_ms']) is None:
        return ''
    return f"{ms(r['median_ms'])} ({ms(r['min_ms'])}–{ms(r['max_ms'])})"


def ratio(a, b):
    a, b = num(a), num(b)
    return a / b if a is not None and b else None


def fmt_ratio(x):
    return '' if x is None else f'{x:.2f}'


def med(s, p, a, m, c='1'):
    r = cell.get((s, p, a, m, c))
    return r['median_ms'] if r else None


def rows_of(s, p, a):
    for m in models:
        r = cell.get((s, p, a, m, '1'))
        if r and r['rows'] != '':
            return r['rows']
    return ''


out = []
# 1. per scale
out.append('| scale | pattern | arguments | rows | ' + ' | '.join(SHORT[m] + ' ms' for m in models)
           + (' | single ÷ floor' if has_floor else '') + ' | 2 clients: ' + ' / '.join(SHORT[m] for m in models)
           + ' | buffers: ' + ' / '.join(SHORT[m] for m in models) + ' |')
out.append('|---:|---|---|---:|' + '---:|' * len(models) + ('---:|' if has_floor else '') + '---:|---:|')
for s in scales:
    for (no, p, kind, a) in order:
        if not any(k[0] == s and k[1] == p and k[2] == a for k in cell):
            continue
        if p == 'select_1':
            r1, r2 = cell.get((s, p, a, 'round trip', '1')), cell.get((s, p, a, 'round trip', '2'))
            cells = ['' for m in models]  # SELECT 1 goes in the last (floor) column
            cells[-1] = lat(r1)
            two = ' / '.join(['-'] * (len(models) - 1) + [ms(r2['median_ms']) if r2 else '-'])
            out.append(f'| {s} | SELECT 1 (round trip, floor column) | | 1 | ' + ' | '.join(cells)
                       + (' |' if has_floor else '') + f' | {two} | |')
            continue
        cells, two, bufs = [], [], []
        label = ''
        for m in models:
            r = cell.get((s, p, a, m, '1'))
            cells.append(lat(r))
            r2 = cell.get((s, p, a, m, '2'))
            two.append(ms(r2['median_ms']) if r2 else '-')
            bufs.append(r['buffers'] if r and r['buffers'] else '-')
            if r and not label:
                label = r['label']
        name = p + (' (write)' if kind == 'write' else '')
        args = {'busiest': 'busiest: ', 'constant': 'constant: '}.get(a, '') + label
        rf = fmt_ratio(ratio(med(s, p, a, 'hroe_single'), med(s, p, a, 'floor'))) if kind == 'read' else ''
        out.append(f'| {s} | {name} | {args} | {rows_of(s, p, a)} | ' + ' | '.join(cells)
                   + (f' | {rf}' if has_floor else '')
                   + ' | ' + (' / '.join(two) if a != 'constant' else '-') + ' | ' + ' / '.join(bufs) + ' |')
out.append('')
out.append('Latency (ms, 1 client): median of the rounds (lowest–highest round in brackets); a round\'s latency is '
           'pgbench\'s, its duration per transaction, client side: it includes the round trip (`SELECT 1`). 2 clients: median. '
           'Buffers: shared hit + read of one warm execution. Writes: `BEGIN; write; ROLLBACK`. '
           'Arguments: busiest = the comparison\'s first argument set (its answer grows with the data); '
           'constant = chosen per scale to keep the answer size fixed (test/bench/compare_sweep_args.sql).')
out.append('')

# 2. goals
reads = [(no, p) for (no, p, kind, a) in order if kind == 'read' and a == 'busiest']
if reads:
    gm = [m for m in models]
    head = ['pattern']
    if has_floor:
        head += ['single ÷ floor, busiest (scale ' + ' / '.join(scales) + ')',
                 'single ÷ floor, constant (scale ' + ' / '.join(scales) + ')']
    head += [f'rows, constant, scale {first} → {last}',
             f'growth {first}→{last}, constant: ' + ' / '.join(SHORT[m] for m in gm),
             f'per-row growth {first}→{last} (answer changes): ' + ' / '.join(SHORT[m] for m in gm)]
    out.append('| ' + ' | '.join(head) + ' |')
    out.append('|---|' + '---:|' * (len(head) - 1))
    within = collections.Counter()
    grow_ok, grow_n = collections.Counter(), 0
    prow_ok, prow_n = collections.Counter(), 0
    for no, p in reads:
        line = [p]
        if has_floor:
            for a in ('busiest', 'constant'):
                rs = []
                for s in scales:
                    x = ratio(med(s, p, a, 'hroe_single'), med(s, p, a, 'floor'))
                    rs.append(fmt_ratio(x) or '-')
                    if x is not None and x <= 1.2:
                        within[(a, s)] += 1
                line.append(' / '.join(rs))
        r0, r1 = num(rows_of(first, p, 'constant')), num(rows_of(last, p, 'constant'))
        line.append(f'{rows_of(first, p, "constant")} → {rows_of(last, p, "constant")}')
        grows = r0 is not None and r1 is not None and (r1 > 1.2 * r0 or r1 < 0.8 * r0)
        g, pr = [], []
        if not grows:
            grow_n += 1
        else:
            prow_n += 1
        for m in gm:
            x = ratio(med(last, p, 'constant', m), med(first, p, 'constant', m))
            g.append(fmt_ratio(x) or '-')
            if x is not None and not grows and x < 1.5:
                grow_ok[m] += 1
            if grows and r0 and r1:
                y = ratio(num(med(last, p, 'constant', m)) / r1 if num(med(last, p, 'constant', m)) is not None else None,
                          num(med(first, p, 'constant', m)) / r0 if num(med(first, p, 'constant', m)) is not None else None)
                pr.append(fmt_ratio(y) or '-')
                if y is not None and y < 1.5:
                    prow_ok[m] += 1
        line.append(' / '.join(g))
        line.append(' / '.join(pr) if pr else '— (answer constant)')
        out.append('| ' + ' | '.join(line) + ' |')
    out.append('')
    if has_floor:
        for a in ('busiest', 'constant'):
            out.append(f'Single-table within 1.2× of the floor, {a} arguments: '
                       + ', '.join(f'{within[(a, s)]} of {len(reads)} at scale {s}' for s in scales) + '.')
    if len(scales) > 1:
        out.append(f'Growth {first}→{last} under 1.5× on the {grow_n} patterns whose answer stays constant (rows within ±20 %): '
                   + ', '.join(f'{SHORT[m]} {grow_ok[m]}' for m in gm) + '.')
        out.append(f'Per-row growth {first}→{last} under 1.5× on the {prow_n} patterns whose answer changes: '
                   + ', '.join(f'{SHORT[m]} {prow_ok[m]}' for m in gm) + '.')
    mism = [r for r in rows if r['model'] == 'floor' and r['clients'] == '1' and r['same_as_single'] != 'true']
    if has_floor:
        n = sum(1 for r in rows if r['model'] == 'floor' and r['clients'] == '1')
        out.append(f'Floor answers equal to hroe_single\'s: {n - len(mism)} of {n} argument sets'
                   + ('' if not mism else ' — DIFFERENT: ' + ', '.join(f"{r['pattern']} ({r['args_set']}, scale {r['scale']})" for r in mism)) + '.')

text = '\n'.join(out) + '\n'
open(md_path, 'w').write(text)
print(text, end='')

# 3. charts (gnuplot scripts)
svg_main = open(os.path.join(chart_dir, 'svg_main')).read().strip()
svg_growth = open(os.path.join(chart_dir, 'svg_growth')).read().strip()
info = open(os.path.join(chart_dir, 'run_info')).read().strip()
lm = [m for m in models]
pats = [p for no, p in reads]
dat = os.path.join(chart_dir, 'compare.dat')
with open(dat, 'w') as f:
    f.write('pattern ' + ' '.join(f'{SHORT[m]}@{s}' for s in scales for m in lm) + '\n')
    for p in pats:
        f.write(p + ' ' + ' '.join(num(med(s, p, 'busiest', m)) is not None and med(s, p, 'busiest', m) or '?'
                                   for s in scales for m in lm) + '\n')
ncols = 1 + len(scales) * len(lm)
with open(os.path.join(chart_dir, 'compare.gp'), 'w') as f:
    f.write(f'''set terminal svg size 1200,600 dynamic font "sans,10"
set termoption noenhanced
set output "{svg_main}"
set title "hroe: read pattern latency on the busiest arguments, 1 client, pgbench -M prepared (median ms, log scale)\\n{info}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "ms"
set xtics rotate by -45 font ",8"
set key outside right top
set datafile missing "?"
plot for [i=2:{ncols}] "{dat}" using i:xtic(1) title columnheader(i)
''')
cols = max(1, min(5, len(pats)))
nrows = (len(pats) + cols - 1) // cols
with open(os.path.join(chart_dir, 'compare_growth.gp'), 'w') as f:
    f.write(f'''set terminal svg size {cols * 300},{nrows * 240 + 40} dynamic font "sans,9"
set termoption noenhanced
set output "{svg_growth}"
set datafile missing "?"
set logscale xy
set xtics ({', '.join(f'"{s}" {s}' for s in scales)})
set key top left font ",7" samplen 2
set multiplot layout {nrows},{cols} title "hroe: median latency (ms, 1 client) against scale, constant-answer arguments; rows per call in each title\\n{info}"
''')
    for i, p in enumerate(pats):
        g = os.path.join(chart_dir, f'growth_{i}.dat')
        with open(g, 'w') as d:
            for s in scales:
                d.write(s + ' ' + ' '.join(med(s, p, 'constant', m) or '?' for m in lm) + '\n')
        rr = ' → '.join(rows_of(s, p, 'constant') or '?' for s in scales)
        f.write(f'set title "{p} ({rr} rows)"\n')
        f.write('plot ' + ', '.join(f'"{g}" using 1:{j + 2} with linespoints title "{SHORT[m]}"'
                                    for j, m in enumerate(lm)) + '\n')
    f.write('unset multiplot\n')
