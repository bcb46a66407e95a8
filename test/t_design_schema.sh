#!/usr/bin/env bash
# test/t_design_schema.sh: doc/design.schema.json describes the design
# documents hroe reads and makes.  The schema is itself valid JSON Schema
# (2020-12); the designs in models/designs/, the NoSQL Workbench model
# imported with its patterns (hroe.design_import) and HR/OE as a design
# (hroe.design_hroe, both models, and the three models: hroe_single with
# hroe_multi as its variant, after hroe.load) validate against it; a
# document without patterns, one with a pattern of an unknown kind and one
# with a request of an unknown operation and one whose variant has variants
# do not, so that the check can fail.
# Needs python3-jsonschema (Debian's, in test/lib.sh's suite packages).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
scratch_db hroe_t_design_schema hroe_hr
python3 -c 'import jsonschema' 2>/dev/null || { echo "python3-jsonschema is not installed (apt-get install python3-jsonschema)"; exit 1; }

q "SET client_min_messages = warning; SELECT count(*) FROM hroe.load(0.2, 42)" >/dev/null
cp models/designs/adjacency.json models/designs/one_to_many.json "$work/"
q "SELECT hroe.design_import(\$j\$$(cat models/designs/saas.workbench.json)\$j\$, \$j\$$(cat models/designs/saas.patterns.json)\$j\$)" >"$work/saas_imported.json"
q "SELECT hroe.design_hroe('hroe_single')" >"$work/hroe_single.json"
q "SELECT hroe.design_hroe('hroe_multi')" >"$work/hroe_multi.json"
q "SELECT hroe.design_hroe('hroe_single') || jsonb_build_object('name', 'hroe', 'variants', jsonb_build_array(hroe.design_hroe('hroe_multi')))" >"$work/hroe.json"
python3 - "$work" <<'PY'
import json, sys, copy
from jsonschema import Draft202012Validator
work = sys.argv[1]
schema = json.load(open('doc/design.schema.json'))
Draft202012Validator.check_schema(schema)
print('ok   doc/design.schema.json is a valid JSON Schema (2020-12)')
v = Draft202012Validator(schema)
failed = False
docs = {}
for name in ('adjacency', 'one_to_many', 'saas_imported', 'hroe_single', 'hroe_multi', 'hroe'):
    doc = json.load(open('%s/%s.json' % (work, name)))
    docs[name] = doc
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        failed = True
        for e in errors[:5]:
            print('FAIL %s: %s at %s' % (name, e.message[:200], list(e.path)))
    else:
        print('ok   %s validates (%d tables, %d facets, %d patterns)' % (
            name, len(doc['tables']), len(doc.get('facets', [])), len(doc['patterns'])))
bad = {
    'without patterns': {k: x for k, x in docs['adjacency'].items() if k != 'patterns'},
    'with a pattern of kind delete': copy.deepcopy(docs['adjacency']),
    'with a request of operation Drop': copy.deepcopy(docs['adjacency']),
    'with a variant that has variants': copy.deepcopy(docs['hroe']),
}
bad['with a variant that has variants']['variants'][0]['variants'] = []
bad['with a pattern of kind delete']['patterns'][0]['kind'] = 'delete'
bad['with a request of operation Drop']['patterns'][0]['dynamodb']['requests'][0]['operation'] = 'Drop'
for what, doc in bad.items():
    if v.is_valid(doc):
        failed = True
        print('FAIL a document %s validates: the schema is blind' % what)
    else:
        print('ok   a document %s is refused' % what)
sys.exit(1 if failed else 0)
PY
