#!/bin/bash -eu
# ClusterFuzzLite's build script (run inside the image .clusterfuzzlite/Dockerfile
# makes, as $SRC/build.sh). The build itself is fuzz/build-fuzzers.sh, shared
# with OSS-Fuzz (fuzz/oss-fuzz/build.sh) and the local check
# (fuzz/oss-fuzz/check-build.sh).
exec "$SRC/diopter/fuzz/build-fuzzers.sh"
