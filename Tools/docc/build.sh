#!/usr/bin/env bash
# Builds the DocC documentation of the library products with swift-docc-plugin, warnings as errors
# (an unresolved symbol link or a malformed article fails the build), into one combined archive:
#     Tools/docc/build.sh                  # .build/plugins/Swift-DocC/outputs/Penumbra.doccarchive
# Preview one module while writing: swift package --disable-sandbox preview-documentation --target Penumbra
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=(Penumbra PenumbraModel PenumbraCore PenumbraText PenumbraIO PenumbraCPU PenumbraGPU PenumbraSigning PenumbraSnapshotTesting PenumbraUI PenumbraSVG)
args=()
for t in "${targets[@]}"; do args+=(--target "$t"); done
swift package generate-documentation "${args[@]}" --enable-experimental-combined-documentation --warnings-as-errors
