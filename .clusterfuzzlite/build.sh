#!/bin/bash -eu
# ClusterFuzzLite runs $SRC/build.sh, which the Dockerfile copies from here.
# The build itself is fuzz/oss-fuzz/build.sh, the script OSS-Fuzz and
# ci/libfuzzer.sh run too.
exec "$SRC/hpackcert/fuzz/oss-fuzz/build.sh"
