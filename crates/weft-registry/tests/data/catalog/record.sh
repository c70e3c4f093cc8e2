#!/bin/sh
# Re-records the expected `to-prompt` outputs in this directory with skills-ref 0.1.1.
# Usage: sh record.sh /path/to/venv   (a venv with `pip install skills-ref==0.1.1`)
# See README.md. The absolute path of ./skills is replaced by the placeholder {DATA}.
set -eu
venv=${1:-/tmp/skillsref}
cd "$(dirname "$0")"
data=$(cd skills && pwd -P)
record() {
    out=$1
    shift
    # `sed` with `|` as the delimiter; the data path holds no `|`.
    "$venv/bin/agentskills" to-prompt "$@" | sed "s|$data|{DATA}|g" >"$out"
}
record all.xml skills/escaping skills/code-review skills/multi-line skills/cafe-notes skills/commit
record reordered.xml skills/commit skills/cafe-notes skills/multi-line skills/code-review skills/escaping
record single.xml skills/code-review
# What `weft skills catalog --format xml --no-builtins` reads from one root: its skill
# directories in name order (`a&b` aside: weft refuses that directory name, E107).
record sorted.xml skills/cafe-notes skills/code-review skills/commit skills/escaping skills/multi-line
record ampersand-location.xml 'skills/a&b'
# Every skill of one root, what the model is not offered too (disable-model-invocation,
# paths:), and 30 descriptions of 1,000 characters that a catalog budget would shorten.
listing=$(cd listing && pwd -P)
"$venv/bin/agentskills" to-prompt $(ls -d listing/*/ | sort) | sed "s|$listing|{LISTING}|g" >listing.xml
"$venv/bin/python" -c 'from skills_ref import to_prompt; print(to_prompt([]))' >empty.xml
