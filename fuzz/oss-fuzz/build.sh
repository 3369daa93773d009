#!/bin/bash -eu
# OSS-Fuzz's build script for diopter (projects/diopter/build.sh in the
# oss-fuzz repository; run inside the image fuzz/oss-fuzz/Dockerfile makes).
# The build itself is fuzz/build-fuzzers.sh in diopter's tree, shared with
# ClusterFuzzLite (.clusterfuzzlite/build.sh) and the local check
# (fuzz/oss-fuzz/check-build.sh).
exec "$SRC/diopter/fuzz/build-fuzzers.sh"
