#!/usr/bin/env python3
"""test/report_dom.py: reads the DOM that headless Chromium dumped of the HTML
report (test/t_report_browser.sh) and prints what it renders, one fact a line:

  summary <pattern_no> <pattern> | <case> | <answers> | <cell>...     a #summary row
  details <field>\t<field>...                                           a #details row
  grid <table> <index or -> | <caption> | <first partition key> | <types>
  chart <id> <bars>                                                     an SVG chart
  growth <count>                                                        growth charts
  cost <id>\t<text>                                                     the cost totals
  attr <name> <value>                                                   a body attribute

Standard library only (html.parser)."""
import sys
from html.parser import HTMLParser


class Report(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.table = None        # (id, data-table, data-index) of the open table
        self.stack = []          # open tables
        self.row = None          # cells of the open row
        self.cell = None         # text of the open cell
        self.in_caption = False
        self.caption = ''
        self.grid = None
        self.svg = None
        self.bars = 0
        self.growth = 0
        self.in_cost_total = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'body':
            for k, v in attrs:
                if k.startswith('data-'):
                    self.out.append('attr %s %s' % (k, v))
        if tag == 'table':
            self.stack.append(self.table)
            self.table = (a.get('id'), a.get('data-table'), a.get('data-index'))
            if a.get('class') == 'hroe-grid':
                self.grid = {'table': a.get('data-table'), 'index': a.get('data-index') or '-',
                             'caption': '', 'first': None, 'types': []}
        elif tag == 'caption':
            self.in_caption = True
            self.caption = ''
        elif tag == 'tr':
            self.row = []
            if self.grid is not None and a.get('data-type') is not None:
                if a['data-type'] not in self.grid['types']:
                    self.grid['types'].append(a['data-type'])
        elif tag in ('td', 'th') and self.row is not None:
            self.cell = ''
            if self.grid is not None and tag == 'th' and a.get('class') == 'pk' and self.grid['first'] is None:
                self.grid['first'] = ''
                self.grid['in_first'] = True
        elif tag == 'svg':
            self.svg = a.get('id')
            self.bars = 0
            if a.get('class') == 'growth':
                self.growth += 1
        elif tag == 'rect' and self.svg and a.get('height') not in (None, '10'):
            self.bars += 1
        if tag == 'th' and (a.get('id') or '').startswith('cost-total-'):
            self.in_cost_total = a['id']
            self.cost_text = ''

    def handle_endtag(self, tag):
        if tag == 'caption':
            self.in_caption = False
            if self.grid is not None:
                self.grid['caption'] = self.caption.strip()
        elif tag in ('td', 'th') and self.cell is not None and self.row is not None:
            self.row.append(' '.join(self.cell.split()))
            self.cell = None
            if self.grid is not None and self.grid.get('in_first'):
                self.grid['in_first'] = False
            if self.in_cost_total and tag == 'th':
                self.out.append('cost %s\t%s' % (self.in_cost_total, self.row[-1]))
                self.in_cost_total = None
        elif tag == 'tr' and self.row is not None:
            tid = self.table[0] if self.table else None
            if self.row and tid == 'summary' and self.row[0] != '#':
                self.out.append('summary %s %s | %s | %s | %s' % (self.row[0], self.row[1], self.row[2], self.row[3],
                                                                  ' | '.join(self.row[4:])))
            elif self.row and tid == 'details' and self.row[0] != '#':
                self.out.append('details ' + '\t'.join(self.row))
            self.row = None
        elif tag == 'table':
            if self.grid is not None and self.table and self.table[1] is not None:
                g = self.grid
                self.out.append('grid %s %s | %s | %s | %s' % (g['table'], g['index'], g['caption'], g['first'],
                                                               ','.join(g['types'])))
                self.grid = None
            self.table = self.stack.pop() if self.stack else None
        elif tag == 'svg':
            if self.svg:
                self.out.append('chart %s %s' % (self.svg, self.bars))
            self.svg = None

    def handle_data(self, data):
        if self.in_caption:
            self.caption += data
        if self.cell is not None:
            self.cell += data
        if self.grid is not None and self.grid.get('in_first'):
            self.grid['first'] += data


def main():
    p = Report()
    p.feed(open(sys.argv[1], encoding='utf-8').read())
    p.close()
    p.out.append('growth %d' % p.growth)
    sys.stdout.write('\n'.join(p.out) + '\n')


if __name__ == '__main__':
    main()
