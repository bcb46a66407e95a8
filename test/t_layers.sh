#!/usr/bin/env bash
# test/t_layers.sh: the C code's include graph has no circle and no include
# up the layers (values -> tables -> operations -> {JSON API, sharding} ->
# models); test/include_graph.sh declares the layers and prints the graph.
set -uo pipefail
cd "$(dirname "$0")/.."
bash test/include_graph.sh -q
