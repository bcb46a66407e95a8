#!/usr/bin/env bash
# test/t_vector_number.sh: the parse of a vector's numbers to 32-bit floats
# without strtof (src/tables/vector_number.h, the fast path of a write to a
# vector index) rounds every number exactly as strtof does: about 17 million
# texts (random canonical decimals of 1 to 24 digits at every scale, random
# floats written with 6 to 9 digits, the exact midpoints between adjacent
# floats and the 10- to 16-digit decimals nearest them, edge texts), each
# answer compared bit for bit (test/vector_number/vector_number_test.c).
# Needs no cluster: a C compiler and the header.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cc -O2 -Wall -Wextra -Werror -I src/tables -o "$bin/vector_number_test" test/vector_number/vector_number_test.c -lm
"$bin/vector_number_test" "${HROE_VECTOR_NUMBER_ROUNDS:-1000000}"
echo "t_vector_number: ok"
