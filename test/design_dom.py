#!/usr/bin/env python3
"""test/design_dom.py: reads the DOM that headless Chromium dumped of a
design's page (hroe.design_html; test/t_design_browser.sh) and prints what it
renders, one fact a line:

  summary <pattern> | <answers>                   a #summary row
  call <pattern> | <case> | <side> | <answers>    a #calls row
  table <design> <table> <index or ->             a #tables row
  grid <count>                                    grids drawn
  bill <design> <on demand> <provisioned> <storage bytes>
                                                  a DynamoDB design's totals
  chart <id>                                      an SVG chart drawn
  growth <count>                                  growth charts drawn
  failure <pattern> | <case> | <side> | <class>   a #failures item
  data <pattern> | <case> | <side> | <answers>    a row of the embedded run

Standard library only (html.parser, json)."""
import json
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.table = []
        self.row = None
        self.cell = None
        self.grids = 0
        self.growth = 0
        self.data = None
        self.in_data = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table':
            self.table.append(a.get('id'))
        elif tag == 'tr' and self.table:
            self.row = []
            if a.get('data-kind') == 'requests':
                self.bill = [a.get('data-on-demand'), a.get('data-provisioned')]
            if a.get('data-kind') == 'storage':
                self.out.append('bill %s %s %s %s' % (a.get('data-design'), self.bill[0], self.bill[1], a.get('data-bytes')))
            if self.table[-1] == 'tables' and a.get('data-table'):
                self.out.append('table %s %s %s' % (a.get('data-design'), a.get('data-table'), a.get('data-index')))
        elif tag in ('td', 'th') and self.row is not None:
            self.cell = ''
        elif tag == 'div' and a.get('class') == 'grid':
            self.grids += 1
        elif tag == 'svg' and a.get('id'):
            self.out.append('chart %s' % a.get('id'))
        elif tag == 'svg' and a.get('class') == 'growth':
            self.growth += 1
        elif tag == 'li' and a.get('data-class'):
            self.out.append('failure %s | %s | %s | %s' % (a.get('data-pattern'), a.get('data-case'), a.get('data-side'),
                                                          a.get('data-class')))
        elif tag == 'script' and a.get('id') == 'hroe-design-data':
            self.in_data = True
            self.data = ''

    def handle_endtag(self, tag):
        if tag in ('td', 'th') and self.cell is not None and self.row is not None:
            self.row.append(' '.join(self.cell.split()))
            self.cell = None
        elif tag == 'tr' and self.row is not None:
            t = self.table[-1] if self.table else None
            r = self.row
            self.row = None
            if t == 'summary' and r and r[0] != '#':
                self.out.append('summary %s | %s' % (r[1], r[4]))
            elif t == 'calls' and r and r[0] != '#':
                self.out.append('call %s | %s | %s | %s' % (r[1], r[2], r[3], r[4]))
        elif tag == 'table' and self.table:
            self.table.pop()
        elif tag == 'script' and self.in_data:
            self.in_data = False
            for x in json.loads(self.data):
                self.out.append('data %s | %s | %s | %s' % (x['pattern'], x['case_label'], x['model'],
                                                          'FAILED' if x.get('error_class') else
                                                          'identical' if x['identical'] else 'DIFFER'))

    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d
        if self.in_data:
            self.data += d


p = Page()
p.feed(open(sys.argv[1], encoding='utf-8').read())
p.out.append('grid %d' % p.grids)
p.out.append('growth %d' % p.growth)
print('\n'.join(p.out))
