#!/bin/bash
# make clean: remove kernel builds, tools and guest outputs from the cache.
# The source work tree (which may hold your commits) and ccache are kept.
. "$(dirname "$0")/lib.sh"

for d in "$RTBPF_CACHE"/build "$RTBPF_CACHE"/out "$RTBPF_CACHE"/tools-*; do
	[ -e "$d" ] || continue
	log "removing $d"
	rm -rf "$d"
done
log "kept: $RTBPF_CACHE/src (work tree) and $RTBPF_CACHE/ccache"
